"""What a person chooses for themselves, and the keys they give their programs."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from accounts.scopes import SCOPES


class Profile(models.Model):
    """A person's settings; a person without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    # Since when the account is a bot's, played by a program through the API (accounts.bots;
    # league.services.bot_accounts makes it one, for good); None for a person's.
    bot_since = models.DateTimeField(null=True, blank=True)
    # A day away from the board taken for them, where their clock would run out in a
    # correspondence game, rather than losing the move (accounts.vacations).
    away_auto = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"settings of {self.user}"


class Vacation(models.Model):
    """Days away from the board (accounts.vacations): the clocks of the member's
    correspondence games stop from ``starts_at`` to ``ends_at``. ``ends_at`` is None while
    they are away "now", until they say they are back."""

    class State(models.TextChoices):
        SCHEDULED = "scheduled"  # to come: nothing stopped yet
        AWAY = "away"  # started: their clocks are stopped
        OVER = "over"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.SCHEDULED)
    auto = models.BooleanField(default=False)  # taken for them instead of a timeout
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["state", "starts_at"])]
        ordering = ["starts_at"]

    def __str__(self) -> str:
        return f"{self.user} away from {self.starts_at:%Y-%m-%d}"


class Person(models.Model):
    """Someone a game's log names: a member (their account; bots are accounts too) or a guest a
    club recorded by name. Logs name a person by ``public_id`` alone (games/eventschema.py),
    never by name: a member's name is their account's, a guest's is here, and either can be
    erased without touching a log.

    ``key`` seals what the person wrote in a log in their own words (a record's notes, a
    dispute's reason), each note encrypted under it (accounts.people.seal). Erasing the person
    erases the key with the name, and their notes can no longer be read, while every log and
    every hash stays as it was (crypto-shredding)."""

    public_id = models.CharField(max_length=16, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="person",
    )
    guest_name = models.CharField(max_length=60, blank=True)  # "" for a member, and once erased
    key = models.CharField(max_length=64, blank=True)  # a Fernet key; "" until needed, and erased
    erased_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # One guest person per name: a club's records name a guest by name, as the
            # standings always have.
            models.UniqueConstraint(
                fields=["guest_name"],
                condition=models.Q(user__isnull=True) & ~models.Q(guest_name=""),
                name="person_one_guest_per_name",
            ),
        ]

    def __str__(self) -> str:
        return self.public_id


class ApiToken(models.Model):
    """A key a member gives a program (a bot, a score app) to use the API as them, within its
    scopes (accounts.scopes) and until it expires or is revoked. Only the key's SHA-256 is kept:
    the key itself is shown once, when it is made (accounts.tokens), and ``prefix``, its first
    characters, tells the member's tokens apart in lists."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=12)
    key_hash = models.CharField(max_length=64, unique=True)
    # One column a scope, so that a move's write can ask for the play scope in its own
    # statement (accounts.authentication.CheckedByWrite).
    scope_read = models.BooleanField(default=False)
    scope_play = models.BooleanField(default=False)
    scope_record = models.BooleanField(default=False)
    scope_organise = models.BooleanField(default=False)
    # Made by signing in with a password (POST /api/auth/token/); a member keeps a few of these.
    from_password = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)  # to the minute (authentication)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def scopes(self) -> list[str]:
        return [scope for scope in SCOPES if getattr(self, f"scope_{scope}")]

    def expired(self, now=None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())
