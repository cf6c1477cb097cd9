"""What a person is told when it becomes their turn, when they are invited to a seat and when a
tournament round pairs them: a notice on their stream (games.live.streams), and for a turn in a game
without a short clock, an e-mail if they asked for one (accounts.Profile)."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db.models.signals import post_delete, post_save

from games import store
from games.live import push, streams
from games.signals import club_notice, invitation_sent, round_paired, turn_started


def connect() -> None:
    turn_started.connect(on_turn_started, dispatch_uid="games.live.notices.turn")
    invitation_sent.connect(on_invitation_sent, dispatch_uid="games.live.notices.invitation")
    round_paired.connect(on_round_paired, dispatch_uid="games.live.notices.round")
    club_notice.connect(on_club_notice, dispatch_uid="games.live.notices.club")
    from accounts.models import Profile

    post_save.connect(_forget_choice, sender=Profile, dispatch_uid="games.live.notices.profile")
    post_delete.connect(
        _forget_choice, sender=Profile, dispatch_uid="games.live.notices.profile-gone"
    )


def on_turn_started(*, game, seat: int, user_id: int, **kwargs) -> None:
    push.notify_user(user_id, lambda: streams.turn_notice(game, seat), game.db)


def on_invitation_sent(*, game, seat: int, user_id: int, **kwargs) -> None:
    push.notify_user(user_id, lambda: streams.invitation_notice(game, seat), game.db)


def on_round_paired(*, user_ids, notice, **kwargs) -> None:
    for user_id in user_ids:
        push.notify_user(user_id, {"type": "round_paired", **notice})


def on_club_notice(*, user_ids, notice, **kwargs) -> None:
    for user_id in user_ids:
        push.notify_user(user_id, {"type": "club", **notice})


def turn_based(game) -> bool:
    """A game played over days, not at the board: no clock, or a long one."""
    return game.move_seconds is None or game.move_seconds >= settings.HADAL_TURN_EMAIL_MIN_CLOCK


# Whether a person asked for turn e-mails, as this process last read it: (answer, read at).
# A move is the hot path and most turns go to people who did not ask, so the read is kept for
# CHOICE_SECONDS. Saving a Profile forgets it at once in the process that saved it; another
# process sees the change within CHOICE_SECONDS. Nothing wrong can be sent meanwhile: the task
# reads the Profile afresh before it mails (send_turn_email).
CHOICE_SECONDS = 60.0
_choices: dict[tuple[str, int], tuple[bool, float]] = {}
_choices_lock = threading.Lock()


def forget_choices() -> None:
    """Forget every kept answer (the tests' rolled-back users leave their ids to the next)."""
    with _choices_lock:
        _choices.clear()


def _forget_choice(*, instance, **kwargs) -> None:
    with _choices_lock:
        for key in [key for key in _choices if key[1] == instance.user_id]:
            del _choices[key]


def wants_turn_email(game, user_id: int) -> bool:
    """For a game that qualifies, whether the person asked: one indexed read a minute at most."""
    if not turn_based(game):
        return False
    db = store.where(game)
    key, now = (db, user_id), time.monotonic()
    known = _choices.get(key)
    if known is not None and now - known[1] < CHOICE_SECONDS:
        return known[0]
    from accounts.models import Profile

    wants = Profile.objects.using(db).filter(user_id=user_id, turn_emails=True).exists()
    with _choices_lock:
        if len(_choices) > 10_000:
            _choices.clear()
        _choices[key] = (wants, now)
    return wants


def send_turn_email(*, game_id: int, seat: int, version: int) -> bool:
    """Mail the person at ``seat`` that it is their turn, which began at ``version``: only while
    it still is, if they asked for it, to their verified address if they have one, and once
    per turn however often this is asked (a task delivered twice)."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.mail import send_mail
    from django.urls import reverse

    from accounts.addresses import verified_address
    from games import store
    from games.catalog import game_name

    head = store.load_head(game_id)
    if head is None or head.status != "active" or head.current_player != seat:
        return False
    row = head.seats[seat]
    if row.bot or row.resigned or row.user_id is None or not turn_based(head):
        return False
    user = get_user_model().objects.filter(pk=row.user_id).select_related("profile").first()
    profile = getattr(user, "profile", None) if user is not None else None
    if profile is None or not profile.turn_emails or not user.is_active:
        return False
    address = verified_address(user)  # never one nobody has confirmed
    if address is None:
        return False
    if not cache.add(f"hadal:turn-mail:{head.db}:{game_id}:{seat}:{version}", 1, 30 * 86400):
        return False
    name = game_name(head.slug)
    link = settings.HADAL_SITE_URL.rstrip("/") + reverse("game-detail", args=[game_id])
    send_mail(
        subject=f"Your turn in {name}",
        message=(
            f"Hello {user.username},\n\nit is your turn in {name}.\n\n{link}\n\n"
            "You get this because you asked for an e-mail when it is your turn; "
            f"to stop, untick it at {settings.HADAL_SITE_URL.rstrip('/')}{reverse('settings')}."
        ),
        from_email=None,
        recipient_list=[address],
    )
    return True
