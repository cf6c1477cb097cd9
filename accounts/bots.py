"""Bots are users too. The house bots, played by the service: ``bot-<level>`` (or
``bot-<level>-<suffix>`` for a named bot player in a tournament of bots), with ratings of their
own. Which levels exist is the games app's to say: it registers them when it starts
(games.apps), so this module needs nothing above it.

And bot accounts, as lichess has them: a member's account made a bot's for good
(``Profile.bot_since``; league.services.bot_accounts), played by the member's program through
the API with a token, never from the site's pages. Both are bots wherever people see players
and wherever an event is for people only (:func:`is_bot`, :func:`bots`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q

from core.errors import InvalidInput

BOT_PREFIX = "bot-"
BOT_SUFFIX_MAX = 20
LEVELS: list[str] = []


def register_levels(levels) -> None:
    LEVELS[:] = list(levels)


def is_house_bot(user) -> bool:
    """A bot the service plays (by its name alone)."""
    return user.username.startswith(BOT_PREFIX)


def is_bot(user) -> bool:
    """A house bot, or a bot account. A person's answer reads their profile: a list of users
    selects it with them (``select_related("profile")``, or ``"user__profile"``) so as not to
    ask once a row."""
    if is_house_bot(user):
        return True
    return is_bot_account(user)


def is_bot_account(user) -> bool:
    """A member's account made a bot's (never a house bot)."""
    if getattr(user, "pk", None) is None:  # the anonymous user
        return False
    try:
        return user.profile.bot_since is not None
    except ObjectDoesNotExist:  # no profile: a person with the default settings
        return False


def bots(to_user: str = "") -> Q:
    """The bots among users, as a filter on a query that reaches users by ``to_user`` (e.g.
    ``"user__"`` from seats), in the same statement."""
    return Q(**{f"{to_user}username__startswith": BOT_PREFIX}) | Q(
        **{f"{to_user}profile__bot_since__isnull": False}
    )


def bot_level(username: str) -> str | None:
    """The bot level a username stands for, or None for a person."""
    if not username.startswith(BOT_PREFIX):
        return None
    level, dash, suffix = username[len(BOT_PREFIX) :].partition("-")
    if level in LEVELS and (
        not dash or (suffix.isalnum() and suffix.isascii() and len(suffix) <= BOT_SUFFIX_MAX)
    ):
        return level
    return None


def bot_user(level: str, name: str | None = None, *, create: bool = True):
    """The user that stands for a bot of ``level``: ``bot-<level>``, or a named bot player.
    Only an organiser's tournament entry creates a named bot; seating one in a game
    (``create=False``) needs it to exist."""
    if level not in LEVELS:
        raise InvalidInput(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    name = name or f"{BOT_PREFIX}{level}"
    if bot_level(name) != level:
        raise InvalidInput(
            f"a {level} bot's name is {BOT_PREFIX}{level} or "
            f"{BOT_PREFIX}{level}-<1 to {BOT_SUFFIX_MAX} letters or digits>"
        )
    users = get_user_model().objects
    if not create and name != f"{BOT_PREFIX}{level}":
        user = users.filter(username=name).first()
        if user is None:
            raise InvalidInput(f'no bot player {name!r}; seat a bot with {{"bot": level}}')
        return user
    user, created = users.get_or_create(username=name)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
