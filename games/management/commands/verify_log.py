"""manage.py verify_log FILE: check an exported game bundle (games/records/verify.py);
manage.py verify_log --game ID: check a stored game's chain (games.store.verify_chain)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import logchain, store
from games.models import Game
from games.records.verify import BundleError, verify


class Command(BaseCommand):
    help = (
        "Check a game's export bundle: every hash, the fingerprint, and a replay by the rules; "
        "or, with --game, every stored event's hash of a game in the database."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="the bundle (GET /api/games/{id}/export/)")
        parser.add_argument("--game", type=int, help="a stored game's id, instead of a bundle")

    def handle(self, *args, file: str | None, game: int | None, **options):
        if game is not None and file is None:
            self.stdout.write(_stored(game))
            return
        if file is None or game is not None:
            raise CommandError("give a bundle's file or --game ID, one of the two")
        try:
            raw = Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            result = verify(raw)
        except BundleError as exc:
            raise CommandError(f"the bundle fails: {exc}") from None
        self.stdout.write(result.summary())


def _stored(game_id: int) -> str:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise CommandError(f"there is no game {game_id}")
    try:
        fingerprint = store.verify_chain(game)
    except store.ChainBroken as exc:
        raise CommandError(f"game {game_id}'s log fails: {exc}") from None
    return (
        f"game {game_id}: {game.version} events, every hash matches (chain format "
        f"{game.chain_version}); fingerprint {logchain.short(fingerprint)} ({fingerprint})"
    )
