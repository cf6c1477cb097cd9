"""``manage.py check_history`` (issue 35, item 4): a history of every kind checks clean, and each
difference planted in it, below the app's guards, is a line naming the game and what differs,
and a non-zero exit."""

from __future__ import annotations

import io
import re
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games import history, logchain
from games.models import Event, EventKind, Game, ScoreSheet
from games.play import reads, services
from league.history import history_check
from league.models import RatedGame, RatingChange
from tests.games.test_chain_formats import owner_rewrites
from tests.league.history_world import DSA, World, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world()


def check(*args: str) -> tuple[list[str], str]:
    """Run the command; the lines naming a game, and the rest of what it printed."""
    out = io.StringIO()
    call_command("check_history", *args, stdout=out)
    return differences_in(out.getvalue()), out.getvalue()


def differences_in(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("game ")]


def check_failing(*args: str) -> list[str]:
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"difference"):
        call_command("check_history", *args, stdout=out)
    return differences_in(out.getvalue())


# -- a clean history ------------------------------------------------------------------------------


def test_a_history_of_every_kind_checks_clean(world):
    # The world holds what the check must pass: an entry taken back, a resignation ranked
    # last by the rules' end, a score sheet, a correction, an organiser's word at a table.
    kinds = set(Event.objects.values_list("kind", flat=True))
    assert {"EntryUndone", "SeatResigned", "ResultCorrected", "ResultOverridden"} <= kinds
    assert {version for slug, version in world.played if slug == "deep-vents"} == {1, 2}
    ended = Event.objects.get(game=world.resigned, kind=EventKind.GAME_FINISHED).data
    assert ended["reason"] == "rules" and ended["result"][2]["rank"] == 3
    assert ScoreSheet.objects.filter(game=world.records[0]).exists()
    assert RatingChange.objects.filter(game=world.table_log).count() == 2
    assert world.void.status == "void" and world.active.status == "active"

    found, printed = check()

    assert found == []
    assert "no differences" in printed
    assert f"checked {Game.objects.count()} games" in printed
    assert "  deep-vents v1: 1 played" in printed
    assert re.search(r"^  deep-sea-adventure v2: \d+ played, 1 table log$", printed, re.M)
    assert "  oceans: 1 record" in printed


def test_some_games_only_and_quietly(world):
    game = world.played["abyss", 1]
    found, printed = check("--game", str(game.pk), "--game", str(world.table_log.pk), "--quiet")
    assert found == [] and printed == ""
    _, printed = check("--game", str(game.pk))
    assert "checked 1 game (" in printed and "  abyss v1: 1 played" in printed


def test_a_game_or_a_database_that_is_not_there_is_refused(world):
    with pytest.raises(CommandError, match="no game 999999 in default"):
        check("--game", "999999")
    with pytest.raises(CommandError, match="no database 'restored' is configured"):
        check("--database", "restored")


@pytest.mark.django_db(transaction=True)  # the workers read what is committed
def test_processes_side_by_side_find_what_one_finds():
    world = build_world()
    Game.objects.filter(pk=world.active.pk).update(status="finished")
    alone = history_check(using="default", jobs=1, batch=4)
    together = history_check(using="default", jobs=2, batch=4)
    assert (alone.jobs, together.jobs) == (1, 2)
    assert (
        together.differences
        == alone.differences
        == [
            f"game {world.active.pk} ({DSA} v2, played): the head says finished, its events say "
            "active"
        ]
    )
    assert (together.games, together.events, together.rated, together.unrated) == (
        alone.games,
        alone.events,
        alone.rated,
        alone.unrated,
    )
    assert together.checked == Game.objects.count()


@pytest.mark.django_db(transaction=True)  # the move commits while the check reads
def test_a_game_played_on_while_it_is_checked_is_seen_as_it_was(monkeypatch):
    world = build_world()
    read_events = history.events_of

    def a_move_between_the_heads_and_the_events(**kwargs):
        thread = threading.Thread(target=move_on, args=(world.active.pk,))
        thread.start()
        thread.join()
        return read_events(**kwargs)

    monkeypatch.setattr(history, "events_of", a_move_between_the_heads_and_the_events)
    assert history_check(using="default").differences == []
    assert Game.objects.get(pk=world.active.pk).version > world.active.version  # it moved


def move_on(game_id: int) -> None:
    """The seat to play in ``game_id`` moves, from a connection of this thread's own."""
    try:
        game = Game.objects.get(pk=game_id)
        seat = game.current_player
        user = game.seats.get(index=seat).user
        action = reads.game_legal_actions(game=game, user=user, seat=seat)[0]
        services.game_action_append(
            game=game, seat=seat, expected_version=game.version, action=action, user=user
        )
    finally:
        connection.close()


# -- differences planted below the app ------------------------------------------------------------


def rechain(game: Game, seq: int, data: dict, seat: int | None = None) -> None:
    """A forger with the tables' owner's rights: event ``seq`` holds ``data`` (and was made by
    ``seat``, if given), and every hash from there on and the game's fingerprint are computed
    again, so that the chain holds."""
    rows = list(
        Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "kind", "data", "seat", "actor_id", "created_at", "hash")
    )
    previous = rows[seq - 2][-1] if seq > 1 else logchain.GENESIS
    for number, kind, old, by, actor, created_at, _ in rows[seq - 1 :]:
        if number == seq:
            old, by = data, by if seat is None else seat
        previous = logchain.event_hash(
            previous,
            number,
            kind,
            old,
            by,
            logchain.time_text(created_at),
            actor=actor,
            chain=game.chain_version,
        )
        owner_rewrites(
            "UPDATE games_event SET data = %s, seat = %s, hash = %s "
            "WHERE game_id = %s AND seq = %s",
            [json_param(old), by, previous, game.pk, number],
        )
    Game.objects.filter(pk=game.pk).update(fingerprint=previous)


def json_param(value) -> str:
    return logchain.canonical_text(value)


def finished_event(game: Game) -> Event:
    return Event.objects.get(game=game, kind=EventKind.GAME_FINISHED)


def test_a_changed_hash(world):
    game = world.played["deep-vents", 1]
    owner_rewrites(
        "UPDATE games_event SET hash = %s WHERE game_id = %s AND seq = 5", ["0" * 64, game.pk]
    )
    kind = Event.objects.get(game=game, seq=5).kind
    assert check_failing() == [
        f"game {game.pk} (deep-vents v1, played): event 5 ({kind}): its hash is not that of "
        "what it holds and the hash before it (chain format 2): the event or its hash was "
        "changed"
    ]


def test_a_changed_move_that_keeps_its_hash(world):
    game = world.table_log
    entry = Event.objects.filter(game=game, kind=EventKind.ACTION_APPLIED).last()
    data = {**entry.data, "action": {"type": "tampered"}}
    owner_rewrites(
        "UPDATE games_event SET data = %s WHERE game_id = %s AND seq = %s",
        [json_param(data), game.pk, entry.seq],
    )
    assert check_failing() == [
        f"game {game.pk} ({DSA} v2, table log): event {entry.seq} (ActionApplied): its hash is "
        "not that of what it holds and the hash before it (chain format 2): the event or its "
        "hash was changed"
    ]


def test_a_head_whose_ranks_were_changed(world):
    game = world.played["ventlife", 1]
    result = [dict(entry, rank=3 - entry["rank"]) for entry in game.result]
    Game.objects.filter(pk=game.pk).update(result=result)
    scores = [entry["score"] for entry in game.result]
    ranks = [entry["rank"] for entry in game.result]
    assert check_failing() == [
        f"game {game.pk} (ventlife v1, played): the head's scores and ranks are "
        f"{scores[0]} (rank {3 - ranks[0]}), {scores[1]} (rank {3 - ranks[1]}), its last "
        f"result's {scores[0]} (rank {ranks[0]}), {scores[1]} (rank {ranks[1]})"
    ]


def test_a_rating_change_whose_rank_was_changed(world):
    game = world.records[1]  # ben 1st, cat 2nd, the guest Zoe 3rd
    RatingChange.objects.filter(game=game, seat=1).update(rank=1)
    ben, cat = (RatingChange.objects.get(game=game, seat=seat).user_id for seat in (0, 1))
    assert check_failing() == [
        f"game {game.pk} (abyss, record): its rating changes give member #{ben} rank 1, "
        f"member #{cat} rank 1, its result gives member #{ben} rank 1, member #{cat} rank 2"
    ]


def test_a_result_rewritten_with_its_chain_and_head_that_the_rules_do_not_give(world):
    game = world.played["abyss", 2]
    finished = finished_event(game)
    forged = [dict(entry, score=entry["score"] + 10) for entry in finished.data["result"]]
    rechain(game, finished.seq, {**finished.data, "result": forged})
    Game.objects.filter(pk=game.pk).update(result=forged)
    replayed = ", ".join(f"{e['score']} (rank {e['rank']})" for e in finished.data["result"])
    logged = ", ".join(f"{e['score']} (rank {e['rank']})" for e in forged)
    assert check_failing() == [
        f"game {game.pk} (abyss v2, played): event {finished.seq} (GameFinished): replayed, "
        f"the scores and ranks are {replayed}, the log says {logged}"
    ]


def test_a_move_the_rules_refuse_rewritten_with_its_chain(world):
    game = world.played[DSA, 1]
    move = Event.objects.filter(game=game, kind=EventKind.ACTION_APPLIED).first()
    rechain(game, move.seq, {**move.data, "action": {"type": "dive", "depth": 99}})
    [line] = check_failing()
    assert line.startswith(
        f"game {game.pk} ({DSA} v1, played): event {move.seq} (ActionApplied): the rules "
        "refuse this move ("
    )


def test_a_move_given_to_the_other_seat_with_its_chain(world):
    game = world.played["ventlife", 1]
    move = Event.objects.filter(game=game, kind=EventKind.ACTION_APPLIED).last()
    rechain(game, move.seq, move.data, seat=1 - move.seat)
    assert check_failing() == [
        f"game {game.pk} (ventlife v1, played): event {move.seq} (ActionApplied): a move by "
        f"seat {1 - move.seat}, but replayed it is seat {move.seat}'s turn"
    ]


def test_a_resignation_ranked_as_if_it_had_not_been(world):
    game = world.resigned
    finished = finished_event(game)
    # The ranks by the scores alone, as though nobody had resigned: the resigned diver, who
    # outscored another, no longer last.
    result = finished.data["result"]
    scores = [entry["score"] for entry in result]
    unadjusted = [dict(e, rank=1 + sum(s > e["score"] for s in scores)) for e in result]
    assert unadjusted[2]["rank"] < 3
    rechain(game, finished.seq, {**finished.data, "result": unadjusted})
    Game.objects.filter(pk=game.pk).update(result=unadjusted)
    RatingChange.objects.filter(game=game).delete()
    RatedGame.objects.filter(game=game).delete()
    [line] = check_failing()
    assert line.startswith(f"game {game.pk} ({DSA} v2, played): event {finished.seq} ")


def test_a_void_game_rated_and_a_rating_of_an_older_version(world):
    RatedGame.objects.create(
        game=world.void, slug=DSA, finished_at=world.void.updated_at, version=world.void.version
    )
    corrected = world.corrected
    RatedGame.objects.filter(game=corrected).update(version=corrected.version - 2)
    assert check_failing() == [
        f"game {world.void.pk} ({DSA} v2, played): it was rated, but its events say it is void",
        f"game {corrected.pk} ({DSA}, record): it was rated at version {corrected.version - 2}, "
        f"but its log is at version {corrected.version}: its ratings are not up to date",
    ]


def test_a_head_that_says_finished_with_no_event_to_say_so(world):
    game = world.active
    Game.objects.filter(pk=game.pk).update(status="finished")
    assert check_failing() == [
        f"game {game.pk} ({DSA} v2, played): the head says finished, its events say active"
    ]


def earlier_of(game: Game, held: dict) -> str:
    """The fingerprint ``game``'s log had with ``held`` in place of what those events hold."""
    previous = logchain.GENESIS
    for event in Event.objects.filter(game=game).order_by("seq"):
        previous = logchain.event_hash(
            previous,
            event.seq,
            event.kind,
            held.get(str(event.seq), event.data),
            event.seat,
            logchain.time_text(event.created_at),
            actor=event.actor_id,
            chain=game.chain_version,
        )
    return previous


def test_the_fingerprint_from_before_the_move_to_ids_must_follow_from_what_is_kept(world):
    from django.utils import timezone

    from games.models import EarlierFingerprint

    game = world.played["deep-vents", 2]
    created = Event.objects.get(game=game, seq=1).data
    as_it_was = {"1": {**created, "seats": [{"user": "ann", "bot": None}, {"user": "bo"}]}}
    earlier = EarlierFingerprint.objects.create(
        game=game,
        fingerprint=earlier_of(game, as_it_was),
        replaced_at=timezone.now(),
        events=as_it_was,
    )
    assert check()[0] == []
    earlier.events = {"1": {**as_it_was["1"], "num_players": 3}}
    earlier.save()
    assert check_failing() == [
        f"game {game.pk} (deep-vents v2, played): its fingerprint from before the move to ids, "
        f"{logchain.short(earlier.fingerprint)}, no longer follows from the log as it was"
    ]
    earlier.events = None  # what it covered named someone since erased: nothing to check
    earlier.save()
    assert check()[0] == []
