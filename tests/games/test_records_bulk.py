"""The bulk path of club records (an import) writes exactly what recording one at a time
does, after the same checks, and announces once per game type."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from games import eventschema, people
from games.models import Event, Game, ScoreSheet
from games.play import steps
from games.records import reads as record_reads
from games.records import services as records
from games.signals import game_finished

pytestmark = pytest.mark.django_db

SHEET = {
    "players": [
        {"player": "alice", "score_pile": 40, "deep_cards": ["Go Fish"]},
        {"player": "Zoe", "score_pile": 30},
    ]
}


def entry(**overrides):
    body = {
        "slug": "oceans",
        "played_at": "2024-05-01",
        "results": [{"player": "alice", "rank": 1}, {"player": "Zoe", "guest": True, "rank": 2}],
        "notes": "club night",
        "sheet": SHEET,
    }
    body.update(overrides)
    return body


def written(game: Game) -> tuple:
    """What was written for ``game``, each note as it reads (a note is sealed afresh, with a
    new nonce, every time it is written)."""
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    opened = people.Shown((e.kind, e.data) for e in rows)
    events = [
        (e.seq, e.kind, _opened_notes(e.kind, e.data, opened), e.seat, e.actor_id, e.batch)
        for e in rows
    ]
    seats = [(s.index, s.user_id, s.guest) for s in game.seats.order_by("index")]
    game.refresh_from_db()
    projection = (game.status, game.result, game.finished_at, game.version, game.current_player)
    return events, seats, projection, ScoreSheet.objects.get(game=game).sheet


def _opened_notes(kind, data, opened):
    return {
        key: eventschema.note_text(value, opened.opener)
        if key in eventschema.TEXTS.get(kind, ())
        else value
        for key, value in data.items()
    }


def test_the_bulk_path_writes_what_one_record_at_a_time_writes(alice, bob):
    # Bob named too, and the recorder's word standing for him (an organiser's, for a member).
    with_bob = entry(
        results=[
            {"player": "alice", "rank": 1},
            {"player": "bob", "rank": 2},
            {"player": "Zoe", "guest": True, "rank": 3},
        ],
        sheet={"players": [*SHEET["players"], {"player": "bob", "score_pile": 35}]},
    )
    one = records.match_record(recorded_by=alice, on_behalf_of={"bob"}, **with_bob)
    checked = records.record_check(**with_bob)
    (bulk,) = records.match_records_confirmed(records=[checked], recorded_by=alice)
    assert written(bulk) == written(one)
    assert record_reads.result_state(bulk) == record_reads.result_state(one)


def test_record_check_refuses_what_match_record_refuses(alice):
    with pytest.raises(InvalidInput, match="no member 'bobby'"):
        records.record_check(
            **entry(
                results=[{"player": "bobby", "rank": 1}, {"player": "alice", "rank": 2}], sheet=None
            )
        )
    with pytest.raises(InvalidInput, match="the total 3 is not the sum"):
        records.record_check(
            **entry(
                sheet={
                    "players": [
                        {"player": "alice", "score_pile": 1, "total": 3},
                        {"player": "Zoe", "score_pile": 0},
                    ]
                }
            )
        )
    assert not Game.objects.exists()


def test_a_batch_announces_once_per_game_type_with_every_game(
    alice, django_capture_on_commit_callbacks
):
    heard = []

    def listen(sender, **kwargs):
        heard.append(kwargs)

    game_finished.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            with steps.announcements_batched():
                games = records.match_records_confirmed(
                    records=[records.record_check(**entry()) for _ in range(3)],
                    recorded_by=alice,
                )
    finally:
        game_finished.disconnect(listen)
    ids = [g.pk for g in games]
    assert heard == [
        {"signal": game_finished, "game_id": ids[-1], "slug": "oceans", "game_ids": ids}
    ]
