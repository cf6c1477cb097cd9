"""Load a small demo: a few users (one admin), a finished and a running Deep Sea Adventure
game, a running game of every other playable game against a bot, a club with a recorded Oceans
game, and a Deep Vents tournament with its first round paired."""

from __future__ import annotations

import random
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.models import Game
from games.play import reads, services
from games.rules import registered
from league.services import leagues, tournaments
from league.tournament_spec import TournamentSpec

DSA = "deep-sea-adventure"
MEMBERS = ("alice", "bob", "carol", "dave")


# The club's Oceans game, as its score sheet had it (games.records.oceans).
OCEANS_SHEET = {
    "edition": "first printing",
    "reef": False,
    "scenarios": ["Cruel Sea"],
    "players": [
        {
            "player": "bob",
            "score_pile": 80,
            "bonus": 6,
            "other": 5,
            "total": 91,
            "deep_cards": ["Feeding Frenzy", "Proliferation"],
        },
        {
            "player": "carol",
            "score_pile": 70,
            "bonus": 4,
            "other": 3,
            "total": 77,
            "deep_cards": ["Go Fish"],
        },
        {
            "player": "Mina",
            "score_pile": 65,
            "bonus": 5,
            "total": 70,
            "deep_cards": ["Hibernating"],
        },
    ],
}


class Command(BaseCommand):
    help = "Create demo users and games (idempotent); prints the passwords."

    def handle(self, *args, **options):
        User = get_user_model()
        admin_password = secrets.token_urlsafe(9)
        admin, _ = User.objects.get_or_create(
            username="admin", defaults={"email": "admin@example.org"}
        )
        admin.is_staff = admin.is_superuser = True
        admin.set_password(admin_password)
        admin.save()
        members = {}
        for name in MEMBERS:
            user, created = User.objects.get_or_create(username=name)
            if created:
                user.set_password(f"{name}-demo")
                user.save()
            members[name] = user

        if not Game.objects.exists():
            self._finished_game(members)
            self._running_game(DSA, "random", members, moves=3, seed=11)
            for slug in sorted(registered()):
                if slug != DSA:
                    # The greedy bot answers at once, so the game is ready to play.
                    self._running_game(slug, "greedy", members, moves=4, seed=slug)
            self._club(members)

        self.stdout.write(self.style.SUCCESS("Demo data ready at http://127.0.0.1:8000/"))
        self.stdout.write(f"  admin password: {admin_password}   (admin at /admin/)")
        for name in MEMBERS:
            self.stdout.write(f"  {name} password: {name}-demo")

    def _finished_game(self, members):
        game = services.game_create(
            slug=DSA,
            seats=[{"user": "alice"}, {"user": "bob"}, {"user": "carol"}],
            options={},
            created_by=members["alice"],
        )
        rng = random.Random(7)
        while game.status == "active":
            self._move(game, members, rng)

    def _running_game(self, slug, bot, members, *, moves, seed):
        """Alice against a bot, a few of her moves in."""
        game = services.game_create(
            slug=slug,
            seats=[{"user": "alice"}, {"bot": bot}],
            options={},
            created_by=members["alice"],
        )
        rng = random.Random(seed)
        for _ in range(moves):
            game.refresh_from_db()
            if game.status != "active" or game.current_player != 0:
                break
            self._move(game, members, rng)

    def _club(self, members):
        club = leagues.league_create(
            name="Hadal Divers Club",
            created_by=members["alice"],
            description="Thursday nights, deep-sea games only.",
        )
        for name in ("bob", "carol", "dave"):
            # Invited, and each says yes: the club's members have agreed to be in it.
            leagues.member_invite(league=club, player=name, by=members["alice"])
            leagues.invitation_accept(league=club, by=members[name])
        leagues.match_record(
            game="oceans",
            played_at="2026-11-19",
            league=club.slug,
            # An organiser's record stands for the club's members: final at once.
            recorded_by=members["alice"],
            notes="first game with The Deep",
            results=[
                {"player": "bob", "score": 91, "rank": 1},
                {"player": "carol", "score": 77, "rank": 2},
                {"player": "Mina", "score": 70, "rank": 3, "guest": True},
            ],
            sheet=OCEANS_SHEET,
        )
        cup = tournaments.tournament_create(
            spec=TournamentSpec(
                name="Winter Vents Cup",
                game="deep-vents",
                format="swiss",
                table_size=2,
                rounds=3,
                mode="table",
                players=list(MEMBERS),
                league=club,
            ),
            created_by=members["alice"],
        )
        for name in MEMBERS[1:]:  # alice entered herself; the others say yes to her entry
            tournaments.entry_accept(tournament=cup, by=members[name])
        tournaments.round_pair(tournament=cup, by=members["alice"])

    @staticmethod
    def _move(game, members, rng):
        game.refresh_from_db()
        seat = game.current_player
        user = game.seats.get(index=seat).user
        actions = reads.game_legal_actions(game=game, user=user, seat=seat)
        services.game_action_append(
            game=game,
            seat=seat,
            expected_version=game.version,
            action=rng.choice(actions),
            user=user,
        )
        game.refresh_from_db()
