"""`make run` loads the demo: it must work on an empty database and be safe to run twice."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Game
from games.rules import registered
from league.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_shows_every_playable_game_and_runs_twice(capsys):
    call_command("demo")
    slugs = set(Game.objects.filter(mode="play").values_list("slug", flat=True))
    assert slugs == set(registered())
    assert Game.objects.filter(slug="deep-sea-adventure", status="finished").exists()
    assert Tournament.objects.filter(name="Winter Vents Cup").exists()
    count = Game.objects.count()
    call_command("demo")
    assert Game.objects.count() == count
    assert "alice password: alice-demo" in capsys.readouterr().out
