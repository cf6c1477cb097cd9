"""The event store's tables: Game (stream head and read model), Seat, Event and Snapshot.

Events are facts in the past tense and are never updated or deleted: the model and its
queryset refuse it, and so do triggers in the database for whatever goes around them (migrations
0002 and 0007, SQLite and PostgreSQL). Corrections are new events.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone

from accounts.people import shown_username
from games.bots import bot_name


class GameStatus(models.TextChoices):
    ACTIVE = "active"
    FINISHED = "finished"
    # Withdrawn before any result: a tournament round re-paired, an invitation declined or
    # never answered (games.play.lobby).
    VOID = "void", "Called off"


class GameMode(models.TextChoices):
    PLAY = "play"  # played in the service, through its rule module
    RECORD = "record"  # played on a table; the stream holds the reported results
    LOG = "log"  # played on a table, every move and chance outcome entered by a scorekeeper


class EventKind(models.TextChoices):
    GAME_CREATED = "GameCreated"
    ACTION_APPLIED = "ActionApplied"  # a seat's decision
    CHANCE_RESOLVED = "ChanceResolved"  # the server playing the chance player
    SEAT_ACCEPTED = "SeatAccepted"  # a person invited to a seat takes it
    SEAT_DECLINED = "SeatDeclined"  # ... or refuses it, which calls the game off
    SEAT_JOINED = "SeatJoined"  # someone takes a seat left open for anyone
    SEAT_RESIGNED = "SeatResigned"
    GAME_FINISHED = "GameFinished"
    # Table games: a result is recorded at once (club records) or reported and confirmed.
    RESULT_RECORDED = "ResultRecorded"
    RESULT_REPORTED = "ResultReported"
    RESULT_CONFIRMED = "ResultConfirmed"
    RESULT_DISPUTED = "ResultDisputed"
    RESULT_OVERRIDDEN = "ResultOverridden"
    RESULT_CORRECTED = "ResultCorrected"
    # A game played here that cannot finish (an absent player, the venue closing): the
    # organiser sets its result (games.records.table_results.result_adjudicate).
    RESULT_ADJUDICATED = "ResultAdjudicated"
    GAME_VOIDED = "GameVoided"
    # Table logs (games.tablelog): a tournament table turned into a log, and the scorekeeper
    # taking back the last entry (a correction of the log's tail: replay skips that entry).
    LOG_STARTED = "LogStarted"
    ENTRY_UNDONE = "EntryUndone"
    # A member away from the board (accounts.Vacation): their seat's clock stops, and starts
    # again with the time it had left (games.play.clocks). Only the seat and the times.
    CLOCK_PAUSED = "ClockPaused"
    CLOCK_RESUMED = "ClockResumed"


class Game(models.Model):
    """The stream head. Every column here is a projection written with the append."""

    slug = models.CharField(max_length=40, db_index=True)
    mode = models.CharField(max_length=10, choices=GameMode.choices, default=GameMode.PLAY)
    rules_version = models.PositiveIntegerField()  # 0 for a recorded game
    options = models.JSONField(default=dict)
    num_players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=GameStatus.choices, default=GameStatus.ACTIVE)
    version = models.PositiveIntegerField(default=0)  # the seq of the last event
    current_player = models.SmallIntegerField(null=True, blank=True)  # None once finished
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Time control: a person's move is due this many seconds after the last append; then the
    # random bot plays it (on_timeout "random") or the seat forfeits ("forfeit").
    move_seconds = models.PositiveIntegerField(null=True, blank=True)
    on_timeout = models.CharField(max_length=8, default="random")
    # Or a time bank per seat with an increment per turn (Fischer): games.play.clocks. ``banks`` is
    # each seat's time left at moved_at; ``deadline`` is when the seat to play runs out (null
    # while no clock runs), both written with the append that changes them.
    bank_seconds = models.PositiveIntegerField(null=True, blank=True)
    increment_seconds = models.PositiveIntegerField(default=0)
    banks = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The seats whose clock is stopped while their member is away (ClockPaused), and for a
    # move clock the time the seat to play had left when it stopped: {"seats": [i], "left": s}.
    paused = models.JSONField(null=True, blank=True)
    # The finished game this one is the rematch of (its GameCreated event says so too); one
    # rematch per game, which the unique key keeps when two players ask at once.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="rematch"
    )
    # A table log's scorekeeper: the one person who enters its moves and chance outcomes.
    scorekeeper = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    moved_at = models.DateTimeField(default=timezone.now)  # the last append: the clock starts here
    # The last activity to within ACTIVITY_GRAIN (games.store): what the lists sort by. The
    # store moves it only when it is that old or the status changes, so that most moves change
    # no indexed column and PostgreSQL updates the row in place (a HOT update).
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The hash of the last event: the whole log in 64 hex digits (games/logchain.py).
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    # What each event's hash covers (logchain's formats): 2 for a game made now, which hashes
    # the actor too; 1, the database's default, for the games logged before, and for a row
    # written by anything that does not know of formats (their hashes leave the actor out).
    chain_version = models.PositiveSmallIntegerField(default=2, db_default=1)

    class Meta:
        # The last move first; the id breaks ties, so that a page of a list follows the last.
        ordering = ["-updated_at", "-id"]
        # Each list's order under each of its filters (an index read backwards serves it):
        # every game, by status, by game, by both; and the finished games of a game in the
        # order they ended, from the last one rated (league's ratings).
        indexes = [
            models.Index(fields=["updated_at", "id"], name="game_recent"),
            models.Index(fields=["status", "updated_at", "id"], name="game_status_recent"),
            models.Index(fields=["slug", "updated_at", "id"], name="game_slug_recent"),
            models.Index(
                fields=["slug", "status", "updated_at", "id"], name="game_slug_status_recent"
            ),
            models.Index(
                fields=["slug", "finished_at", "id"],
                condition=models.Q(status="finished"),
                name="game_slug_finished",
            ),
            # The sweep's read: the clocks that have run out. Games without a clock are not in
            # it, so their moves still update the row in place.
            models.Index(
                fields=["deadline"], condition=models.Q(deadline__isnull=False), name="game_clock"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.slug} #{self.pk}"


class Seat(models.Model):
    """Who sits at seat ``index``: a user, a bot (bots are users with ``bot`` set), or, at a
    recorded table game, a guest known only by name; or nobody yet, a seat left open for
    anyone to take (games.play.lobby), which is never accepted until someone does."""

    # The unique (game, index) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    guest = models.CharField(max_length=60, blank=True)
    bot = models.CharField(max_length=20, blank=True)  # the bot level, "" for a person
    resigned = models.BooleanField(default=False)
    # Whether the person has taken the seat (by accepting or by moving); until everyone has,
    # no clock runs. Bots, the game's creator and tournament entrants are seated at once.
    accepted = models.BooleanField(default=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, guest="")
                    | models.Q(user__isnull=True) & ~models.Q(guest="")
                    | models.Q(user__isnull=True, guest="", accepted=False)
                ),
                name="seat_user_or_guest_or_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}: {self.name}"

    @property
    def name(self) -> str:
        if self.user_id:
            return shown_username(self.user.username)
        return f"{self.guest} (guest)" if self.guest else "open seat"

    @property
    def player_name(self) -> str:
        """The seat's player in people's words: a bot by its level ("Random bot")."""
        return bot_name(self.bot) if self.bot else self.name

    @property
    def is_open(self) -> bool:
        return not self.user_id and not self.guest


class AppendOnlyError(Exception):
    """Raised on any attempt to update or delete an event."""


class EventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("events are append-only: corrections are new events")

    def delete(self):
        raise AppendOnlyError("events are append-only: corrections are new events")


class Event(models.Model):
    # No index of its own: the unique (game, seq) serves every lookup by game. No foreign-key
    # constraint in PostgreSQL either (migration 0014): its check was a third of an append's
    # time, and the store inserts events only for the game row it updates in the same
    # statement; games are never deleted. The same goes for the actor, the request's user.
    game = models.ForeignKey(
        Game,
        on_delete=models.PROTECT,
        related_name="events",
        db_index=False,
        db_constraint=False,
    )
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=30, choices=EventKind.choices)
    data = models.JSONField()
    seat = models.SmallIntegerField(null=True, blank=True)  # the seat that acted, if any
    # Not indexed: nothing looks events up by actor, and every index is written on every move.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
        db_constraint=False,
    )
    # Set by the store, which hashes it into the chain (auto_now_add would overwrite it).
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The seq of the first event appended with this one: one call, one batch.
    batch = models.PositiveIntegerField()
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)  # "client:" + 100
    # SHA-256 (hex) over this event and the hash before it: games/logchain.py.
    hash = models.CharField(max_length=64)

    objects = EventQuerySet.as_manager()

    class Meta:
        # By column, not by the game: ordering by a foreign key would sort by Game's ordering,
        # a join and a sort over the whole log.
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq"),
            # Most events have no key: the index holds only those that do.
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="event_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seq} {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError("events are append-only: corrections are new events")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("events are append-only: corrections are new events")


class Snapshot(models.Model):
    """A rule state after event ``version`` in its JSON form (``State.to_json``), only valid
    for its ``rules_version``. A cache derived from the events: it may be dropped at will.

    The app's database role may update this table, so a row says what it was taken at, the
    hash of event ``version`` (``chain_hash``), and carries ``mac``, an HMAC under the
    service's SECRET_KEY over the game, the versions, that hash and the state's text: the
    store uses a snapshot only if both hold (games.store), and replays the events where they
    do not."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField()
    rules_version = models.PositiveIntegerField()
    # Text, not JSON: the canonical JSON (logchain.canonical_text) exactly as the mac covers
    # it, where jsonb would give back its own spelling, to be encoded again to be checked.
    state = models.TextField()
    # Empty in a row written before snapshots were sealed: never used, replaced when read.
    chain_hash = models.CharField(max_length=64, default="", db_default="")
    mac = models.CharField(max_length=64, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "version", "rules_version"], name="snapshot_unique_version"
            )
        ]


class EarlierFingerprint(models.Model):
    """A game's fingerprint before its log was rewritten, the one time logs were: the move to
    naming people by id (migration 0021). ``events`` holds, for each event rewritten, its data
    as it was (names, notes in the clear), so that the earlier fingerprint can still be checked
    (the export bundle carries both, and verify_log recomputes the earlier chain). Erasing a
    person empties ``events`` of every game that names them: an earlier fingerprint over an
    erased name can no longer be checked, and the bundle says so."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="earlier"
    )
    fingerprint = models.CharField(max_length=64)
    replaced_at = models.DateTimeField()
    events = models.JSONField(null=True)  # {"seq": the data it held}; null once erased


class ScoreSheet(models.Model):
    """The score sheet of a recorded game's final result (an Oceans sheet: games.records.oceans), a
    projection of its events kept in the same transaction as the result it belongs to, so
    that statistics over sheets read one table."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="score_sheet"
    )
    slug = models.CharField(max_length=40)
    sheet = models.JSONField()

    class Meta:
        indexes = [models.Index(fields=["slug"])]


class Analysis(models.Model):
    """A finished game's analysis (games.bots.analysis), computed once by a Celery task and
    kept: derived from the events, so it may be dropped and computed again at will."""

    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(
        max_length=10,
        choices=[(RUNNING, "running"), (DONE, "done"), (FAILED, "failed")],
        default=RUNNING,
    )
    progress = models.FloatField(default=0.0)  # 0..1
    result = models.JSONField(null=True, blank=True)
    budget = models.JSONField(default=dict)  # what it was computed with
    started_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    # Who asked for it to be computed (each member may start only so many: games.play.analysis).
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["requested_by", "started_at"])]
