"""The kinds of notice, in the order the settings page lists them, with the words a member
reads there and how each reaches them unless they choose otherwise.

A kind is *waiting* when the notice stands for something the member must do (their turn, an
invitation to answer, a record to confirm): it is done, and leaves the count, once they have
done it, whether or not they opened the notice. The others are news: read once seen.
"""

from __future__ import annotations

from dataclasses import dataclass

NONE, NOW, DIGEST = "none", "now", "digest"
MAIL_CHOICES = (NONE, NOW, DIGEST)
# What an unsubscribe link may stop besides one kind: every kind sent in the daily list
# (DIGEST), or every kind (ALL).
ALL = "all"


@dataclass(frozen=True)
class Kind:
    name: str
    label: str  # the settings page's words
    mail: str  # by default: none, at once, or in the daily digest
    push: bool  # pushed to the member's devices by default (once they allow a device)


KINDS = (
    Kind("your_turn", "It is your turn", DIGEST, True),
    Kind("invitation", "You are invited to a game", NOW, True),
    Kind("rematch", "A rematch is offered", NONE, True),
    Kind("record_to_confirm", "A club result names you and waits for your word", DIGEST, True),
    Kind("dispute", "A result you look after is disputed", NOW, True),
    Kind("round_paired", "A tournament round is paired", NOW, True),
    Kind("check_in", "Check-in opens for your tournament", NOW, True),
    Kind("tournament", "Your tournament starts or ends", NONE, False),
    Kind("join_request", "Someone asks to join your club", DIGEST, True),
    Kind("club", "News of your clubs (a request answered, a removal)", NONE, False),
    Kind("vacation", "Your vacation starts, ends or is taken for you", NOW, False),
)
BY_NAME = {kind.name: kind for kind in KINDS}
NAMES = tuple(BY_NAME)
# What waits for the member's doing: done (and no longer counted) once they have done it.
WAITING = frozenset({"your_turn", "invitation", "rematch", "record_to_confirm", "dispute"})


def label(name: str) -> str:
    return BY_NAME[name].label
