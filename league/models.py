"""Ratings per (player, game): Elo, with OpenSkill beside it, and the change each game made.

All three tables are projections of the finished games: ``recompute_ratings`` rebuilds them
from the games alone, with the same numbers. Players are users; bots are users too.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from accounts.people import FORMER_GUEST
from games.bots import bot_name
from games.models import Game
from league.standings import TIEBREAK_VERSION


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    slug = models.CharField(max_length=40)
    rating = models.FloatField()  # Elo, stored unrounded
    games = models.PositiveIntegerField(default=0)
    openskill_mu = models.FloatField()
    openskill_sigma = models.FloatField()
    # Glicko-2 (league.ratings.Glicko2Ladder), the rating shown: as the last game left it
    glicko_rating = models.FloatField(default=1500.0)
    glicko_deviation = models.FloatField(default=350.0)
    glicko_volatility = models.FloatField(default=0.06)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "slug"], name="rating_unique")]
        indexes = [models.Index(fields=["slug", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.slug}: {self.rating:.1f}"


class RatedGame(models.Model):
    """A finished game the ratings have taken in, in order; ``skipped`` says why if unrated.
    A game someone in it has not agreed to (league.consent) is held (``consent`` "waiting"):
    rated, in its place, once they have; one someone refused ("refused") never is. Neither
    counts in a league's standings."""

    class Consent(models.TextChoices):
        AGREED = "agreed"  # by everyone in it (or it needed nobody's agreement)
        WAITING = "waiting"
        REFUSED = "refused"

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated")
    slug = models.CharField(max_length=40)
    finished_at = models.DateTimeField()
    version = models.PositiveIntegerField()  # the game's version when rated: a correction moves it
    skipped = models.CharField(max_length=200, blank=True)
    consent = models.CharField(max_length=8, choices=Consent.choices, default=Consent.AGREED)

    class Meta:
        indexes = [models.Index(fields=["slug", "finished_at", "game"])]


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    slug = models.CharField(max_length=40)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    openskill_mu_before = models.FloatField()
    openskill_mu_after = models.FloatField()
    openskill_sigma_before = models.FloatField()
    openskill_sigma_after = models.FloatField()
    # Glicko-2: the deviation before is the one the game read, aged by the days since the
    # player's previous game; after is as the game left it.
    glicko_rating_before = models.FloatField(default=1500.0)
    glicko_rating_after = models.FloatField(default=1500.0)
    glicko_deviation_before = models.FloatField(default=350.0)
    glicko_deviation_after = models.FloatField(default=350.0)

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique")
        ]
        indexes = [models.Index(fields=["user", "slug", "finished_at"])]

    @property
    def delta(self) -> float:
        return self.after - self.before


class RatingLedger(models.Model):
    """One row per game slug, locked while that game's ratings change: one writer at a time."""

    slug = models.CharField(max_length=40, primary_key=True)


# -- leagues --------------------------------------------------------------------------------------


class BotLevelRating(models.Model):
    """A bot level's Elo in one game, measured by letting the levels play each other
    (``manage.py simulate --rate``), so a club knows what "greedy" or "mcts" means. Not a
    projection of the games here: each measurement replaces the last for its game."""

    slug = models.CharField(max_length=40)
    level = models.CharField(max_length=20)  # random, greedy, mcts
    budget = models.CharField(max_length=60, blank=True)  # what it thought with, for people
    rating = models.FloatField()  # Elo, random anchored at RANDOM_ANCHOR
    games = models.PositiveIntegerField()
    measured_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["slug", "level"], name="bot_level_rating_unique")
        ]
        ordering = ["-rating"]

    @property
    def name(self) -> str:
        return bot_name(self.level)

    def __str__(self):
        return f"{self.level} in {self.slug}: {self.rating:.0f}"


class League(models.Model):
    """A club: its members, organisers, seasons and the games they record.

    A club is public (anyone may read its page, standings, games and tournaments) or for its
    members (``MEMBERS``): then whoever is not in it, not invited, and not seated in the game
    finds none of it anywhere (league.visibility says who sees what)."""

    class Visibility(models.TextChoices):
        PUBLIC = "public"
        MEMBERS = "members"

    name = models.CharField(max_length=100)
    slug = models.SlugField(unique=True)
    description = models.TextField(blank=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="leagues"
    )
    games = models.ManyToManyField(Game, blank=True, related_name="leagues")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        """A member plays and records; an organiser also runs the club (members, invite links,
        join requests, seasons, tournaments); the owner, one per club, also hands it over and
        names or demotes organisers."""

        MEMBER = "member"
        ORGANISER = "organiser"
        OWNER = "owner"

    league = models.ForeignKey(League, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="membership_unique"),
            models.UniqueConstraint(
                fields=["league"], condition=Q(role="owner"), name="membership_one_owner"
            ),
        ]


class LeagueInvitation(models.Model):
    """An organiser asked someone to join a league and they have not answered yet. Until they
    accept they are not a member: an organiser's word on a record does not stand for them, and
    a record naming them waits for their own confirmation. Accepting makes the Membership (in
    the role asked) and removes the invitation; declining removes it, and they may be asked
    again."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_invitations"
    )
    role = models.CharField(
        max_length=10, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_invitation_unique")
        ]


# The roles that run a club.
ORGANISING = (Membership.Role.ORGANISER, Membership.Role.OWNER)


class InviteLink(models.Model):
    """A link an organiser hands round (a club's chat, a poster): whoever opens it while it
    lasts, and while it has uses left, and signs in, joins the club as a member."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invite_links")
    code = models.CharField(max_length=32, unique=True)  # secrets.token_urlsafe: the secret
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField()
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(uses__lte=models.F("max_uses")), name="invite_link_uses_within_limit"
            )
        ]


class JoinRequest(models.Model):
    """Someone asked to join a club. An organiser accepts (they become a member) or declines,
    and they are told either way; a declined request stays, so that they may not ask again
    until a while has passed (league.services.clubs.ASK_AGAIN_AFTER)."""

    class Answer(models.TextChoices):
        WAITING = "waiting"
        ACCEPTED = "accepted"
        DECLINED = "declined"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests"
    )
    message = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answer = models.CharField(max_length=8, choices=Answer.choices, default=Answer.WAITING)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"],
                condition=Q(answer="waiting"),
                name="join_request_one_waiting",
            )
        ]


class ClubEvent(models.Model):
    """The club's log: who joined and how, who left or was removed, roles given and taken,
    the club handed over, its visibility changed, invite links made and revoked, requests
    answered. Append-only. People by their accounts (``actor``, ``member``), never by name, so
    an erasure (league.services.erasure) leaves it true."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=30)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("the club's log is append-only")
        super().save(*args, **kwargs)


class Season(models.Model):
    """A stretch of a league's calendar, both days included; no end date means it runs until
    one is set. A league's seasons never overlap, so a day belongs to one season at most. Its
    games are the league's games played on its days, and those of its tournaments."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    def contains(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)

    def clean(self) -> None:
        """The dates in order, and no other season of the league on any of these days."""
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": "a season cannot end before it starts"})
        if self.starts_on is None or self.league_id is None:
            return
        others = Season.objects.filter(league_id=self.league_id).exclude(pk=self.pk)
        others = others.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=self.starts_on))
        if self.ends_on is not None:
            others = others.filter(starts_on__lte=self.ends_on)
        clash = others.order_by("starts_on").first()
        if clash is not None:
            until = clash.ends_on.isoformat() if clash.ends_on else "with no end date"
            raise ValidationError(
                f"the season {clash.name!r} ({clash.starts_on.isoformat()} to {until})"
                " covers some of these days: seasons of a league may not overlap"
            )


# -- tournaments ----------------------------------------------------------------------------------


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss"
        ROUND_ROBIN = "round-robin"
        ELIMINATION = "elimination"
        # Tables of 2; out after two losses.
        DOUBLE_ELIMINATION = "double-elimination", "Double elimination"
        POOLS = "pools", "Pools, then a playoff"  # the playoff is the top cut's path

    class Mode(models.TextChoices):
        ONLINE = "online"  # games played in the service; they report themselves
        TABLE = "table"  # played on physical tables; seated players report results

    class Seeding(models.TextChoices):
        ENTRY = "entry"  # the order the players were entered in
        RATING = "rating"  # Elo in the tournament's game when it was created, highest first
        RANDOM = "random"  # drawn when it was created

    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    class EntryMode(models.TextChoices):
        ORGANISER = "organiser"  # the organisers enter the players
        OPEN = "open"  # players enter themselves until round 1, up to the cap, then wait

    class EliminationTies(models.TextChoices):
        # A tie across the line of who goes through (or for the final's win) is ...
        PLAYOFF = "playoff"  # played off: reported in order, or decided by an organiser
        SEED = "seed"  # settled for the higher seed
        SCORE = "score"  # settled for the higher score, then the higher seed

    name = models.CharField(max_length=100)
    slug = models.CharField(max_length=40)  # the game
    format = models.CharField(max_length=20, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField()
    rounds = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=6, choices=Mode.choices)
    options = models.JSONField(default=dict)  # the game's options, starting_bid included
    placement_points = models.JSONField()  # {"2": [1, 0], "3": [5, 3, 1], ...}
    tiebreaks = models.JSONField()  # names, in order
    # The tie-break formulas (league.standings.TIEBREAK_VERSION): standings are recomputed from
    # results, so an event keeps the formulas it was played under.
    tiebreak_version = models.PositiveSmallIntegerField(default=TIEBREAK_VERSION)
    bye_points = models.FloatField(default=0)
    advance = models.PositiveSmallIntegerField(default=1)  # elimination: the top k per table
    seeding = models.CharField(max_length=6, choices=Seeding.choices, default=Seeding.ENTRY)
    time_control = models.JSONField(null=True, blank=True)  # for online tables; see games
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    entry_mode = models.CharField(
        max_length=10, choices=EntryMode.choices, default=EntryMode.ORGANISER
    )
    cap = models.PositiveSmallIntegerField(null=True, blank=True)  # most players; then a waitlist
    check_in = models.BooleanField(default=False)  # round 1 drops who has not checked in
    # When an organiser closed check-in (or round 1 did): the no-shows dropped, their places
    # given to waiting players who had checked in.
    check_in_closed_at = models.DateTimeField(null=True, blank=True)
    # Bots (the house's and bot accounts, accounts.bots) may not enter.
    people_only = models.BooleanField(default=False)
    # Whether a player away from the board (accounts.vacations) stops the clock of their
    # correspondence tables (games.play.away); no effect on shorter clocks.
    vacation_allowed = models.BooleanField(default=True)
    top_cut = models.PositiveSmallIntegerField(default=0)  # Swiss: the top N into elimination
    avoid_club_rounds = models.PositiveSmallIntegerField(default=0)  # keep clubs apart so long
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # table mode
    elimination_ties = models.CharField(
        max_length=8, choices=EliminationTies.choices, default=EliminationTies.PLAYOFF
    )
    # The elimination bracket (or top cut) as drawn when its first round was paired
    # (league.bracket.Bracket.to_json): read back, never drawn again once played.
    bracket = models.JSONField(null=True, blank=True)
    pools = models.PositiveSmallIntegerField(default=0)  # pools format: how many pools
    pool_advance = models.PositiveSmallIntegerField(default=0)  # pools: the top k of each
    # Double elimination: a second final if the losers' bracket champion wins the first.
    grand_final_reset = models.BooleanField(default=True)
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments"
    )
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organising")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.season_id is not None and self.season.league_id != self.league_id:
            raise ValidationError({"season": "the season must be one of the tournament's league"})


class Entry(models.Model):
    class Answer(models.TextChoices):
        # Entered by an organiser: asked, and the tournament's games wait for their yes to be
        # rated (league.consent); they are paired and play meanwhile.
        INVITED = "invited"
        ACCEPTED = "accepted"  # said yes, or entered themself (open entry)
        DECLINED = "declined"  # said no: withdrawn

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    # The member entered; None for a walk-in entered by name (``guest``) until a member claims
    # the entry with its ``claim_code`` (league.services.tournaments.walk_ins).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    # A walk-in's name, as club records name a guest (games.models.Seat.guest): kept once the
    # entry is claimed, since the games played before the claim seat the guest by it.
    guest = models.CharField(max_length=60, blank=True, default="")
    claim_code = models.CharField(max_length=12, blank=True, default="")  # "" once claimed
    seed = models.PositiveIntegerField()
    entered_after_round = models.PositiveSmallIntegerField(default=0)  # late entry
    dropped_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    waitlisted = models.BooleanField(default=False)  # open entry beyond the cap
    checked_in = models.BooleanField(default=False)
    answer = models.CharField(max_length=8, choices=Answer.choices, default=Answer.INVITED)
    # A table the player must sit at every round (accessibility: table 1 near the door):
    # pairing moves them there (league.services.tournaments.drafts).
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique"),
            # Erased walk-ins share one name (accounts.people.FORMER_GUEST), as their seats do.
            models.UniqueConstraint(
                fields=["tournament", "guest"],
                condition=~Q(guest="") & ~Q(guest=FORMER_GUEST),
                name="entry_guest_unique",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(guest=""), name="entry_user_or_guest"
            ),
        ]

    @property
    def dropped(self) -> bool:
        return self.dropped_after_round is not None

    @property
    def name(self) -> str:
        """The entrant's name at the tournament: the member's username, or a walk-in's name
        marked as a guest's ("Ann (guest)", as games show a guest), which no username can be."""
        return self.user.username if self.user_id else guest_name(self.guest)


GUEST_MARK = " (guest)"


def guest_name(guest: str) -> str:
    return f"{guest}{GUEST_MARK}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    attempt = models.PositiveSmallIntegerField(default=1)  # re-pairing makes a new attempt
    void = models.BooleanField(default=False)  # replaced by a re-pairing
    stage = models.CharField(max_length=4, default="main")  # "cut": a Swiss event's top cut
    started_at = models.DateTimeField(null=True, blank=True)  # the round's clock, table mode
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # extensions included
    # While the clock is paused: when it stopped (resuming moves started_at on by the pause).
    paused_at = models.DateTimeField(null=True, blank=True)
    byes = models.ManyToManyField(Entry, blank=True, related_name="byes")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number", "attempt"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number", "attempt"], name="round_unique")
        ]


class Table(models.Model):
    class Report(models.TextChoices):
        """Where a table-mode table's reported result stands: the ``status`` of its game's
        games.records.reads.result_state, spelt as it spells it."""

        AWAITING_REPORT = "awaiting report"
        AWAITING_CONFIRMATION = "awaiting confirmation"
        DISPUTED = "disputed"  # the players disagree: the organiser settles it
        FINAL = "final"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="table")
    # Double elimination: the bracket match it plays (league.double_elimination), e.g. "L2-1".
    match = models.CharField(max_length=8, blank=True, default="")
    # Minutes this table plays beyond the round's clock (a late start, a judge's call).
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["number"]


class RoundDraft(models.Model):
    """The next round's pairing before it is published: names only, no games, told to nobody
    and seen by the organisers alone. They edit it (swap, fix a table, give or take a bye) and
    publish it, which writes the round as pairing it at once would; a tournament has at most
    one draft open."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="draft")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=4, default="main")
    tables = models.JSONField(default=list)  # [[name, ...], ...] in seat order, table 1 first
    byes = models.JSONField(default=list)  # [name, ...]
    created_at = models.DateTimeField(auto_now_add=True)


class TournamentEvent(models.Model):
    """The tournament's log: entries, waitlist moves, check-ins, drops and re-entries,
    pairings and re-pairings, round clocks, stage changes and the end. Append-only."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    kind = models.CharField(max_length=30)
    data = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("the tournament log is append-only")
        super().save(*args, **kwargs)


# -- webhooks -------------------------------------------------------------------------------------


class Webhook(models.Model):
    """An address an organiser gave for the club's news (league.webhooks): results, pairings,
    standings and disputes, as plain JSON or as a Discord or Slack message, signed with
    ``secret`` as the Standard Webhooks spec says. ``last_seq`` numbers its messages: a
    writer takes the next number by updating this row, so that numbers follow commits."""

    class Format(models.TextChoices):
        PLAIN = "plain"
        DISCORD = "discord"
        SLACK = "slack"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.PLAIN)
    secret = models.CharField(max_length=64)  # "whsec_" and base64: shown once, at creation
    active = models.BooleanField(default=True)
    # Set when its oldest waiting message has failed for too long (league.webhooks.sending):
    # nothing more is sent or written for it until an organiser resumes it.
    stopped_at = models.DateTimeField(null=True, blank=True)
    last_seq = models.PositiveBigIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.league}: {self.url}"


class OutboxMessage(models.Model):
    """One message for one webhook, written in the transaction that made its fact true, and
    sent in ``seq`` order: the delivery log. ``sent_at`` is set, in the transaction that
    holds the webhook's sending lock, once the receiver answered 2xx."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveBigIntegerField()
    type = models.CharField(max_length=30)  # "result.recorded", "round.paired", ...
    text = models.CharField(max_length=2000)  # the fact in players' words
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)  # HTTP status
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["webhook", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "seq"], name="outbox_message_seq_unique")
        ]
        indexes = [
            # The sweep's question: which webhooks have a message due?
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(sent_at__isnull=True),
                name="outbox_message_waiting",
            )
        ]
