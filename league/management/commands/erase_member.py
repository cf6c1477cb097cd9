"""manage.py erase_member NAME --yes: erase a member (their games, ratings and standings kept as
a former member's; every log still verifies). --guest NAME erases a guest a club recorded;
--ledger FILE erases again everyone the erasure ledger lists (after restoring a backup)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from league.services import erasure


class Command(BaseCommand):
    help = (
        "Erase a member for good: their name, e-mail, password and the key of their notes; "
        "their games stay as a former member's and every log still verifies."
    )

    def add_arguments(self, parser):
        parser.add_argument("name", nargs="?", help="the member's username")
        parser.add_argument("--guest", help="erase a guest recorded under this name instead")
        parser.add_argument("--ledger", help="erase again everyone this erasure ledger lists")
        parser.add_argument("--yes", action="store_true", help="really erase")

    def handle(self, *args, name=None, guest=None, ledger=None, yes=False, **options):
        if sum(x is not None for x in (name, guest, ledger)) != 1:
            raise CommandError("give one of: a member's NAME, --guest NAME or --ledger FILE")
        try:
            if ledger is not None:
                erased = erasure.ledger_replay(ledger)
                self.stdout.write(f"erased again: {len(erased)} ({', '.join(erased) or 'none'})")
                return
            if guest is not None:
                self._confirm(yes, f"the guest {guest!r}")
                done = erasure.guest_erase(name=guest)
            else:
                user = get_user_model().objects.filter(username=name).first()
                if user is None:
                    raise CommandError(f"no member is called {name!r}")
                reasons = erasure.why_not_erasable(user)
                if reasons:
                    raise CommandError(f"{name} cannot be erased yet: " + "; ".join(reasons))
                self._confirm(yes, name)
                done = erasure.member_erase(user=user)
        except ServiceError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"erased {done.public_id}: {len(done.games_left)} game(s) in progress left, "
            f"{done.games_kept} game(s) kept as a former {'guest' if guest else 'member'}'s"
        )

    def _confirm(self, yes: bool, who: str) -> None:
        if not yes:
            raise CommandError(f"this erases {who} for good: run it again with --yes")
