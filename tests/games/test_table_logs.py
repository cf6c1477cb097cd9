"""Table logs (games.tablelog) through the HTTP API: a physical game of each game with chance
entered by its scorekeeper to the end, refused entries that store nothing, undo as an event,
what each reader sees, and the ratings."""

from __future__ import annotations

import random

import pytest

from games import store
from games.models import Event, EventKind, Game
from games.records import table_results
from games.records.verify import verify
from games.rules import get_rules
from league.models import RatingChange

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"
CHANCE_GAMES = ["deep-sea-adventure", "deep-vents", "abyss", "ventlife"]

# An outcome the table cannot turn up, of the kind each game asks for first.
IMPOSSIBLE = {
    "deep-sea-adventure": {"type": "roll", "dice": [4, 1]},  # the dice have faces 1 to 3
    "deep-vents": {"type": "draw", "hex": "Kraken"},  # no such hex in the stack
    "abyss": {"type": "first_player", "seat": 5},  # three players
    "ventlife": {"type": "draw", "seat": 0, "tile": "BX"},  # no such tile in the bag
}


@pytest.fixture
def table(alice, bob, api):
    """Make a table log of ``slug``: alice (the scorekeeper) and bob, and a guest, Carol."""

    def make(slug: str, **extra):
        body = {
            "game": slug,
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "alice"}, {"user": "bob"}, {"guest": "Carol"}],
            **extra,
        }
        response = api.post("/api/games/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return make


def due(client, game_id: int) -> dict:
    response = client.get(f"/api/games/{game_id}/log/")
    assert response.status_code == 200, response.json()
    return response.json()


def enter(client, game_id: int, seat, action, version: int):
    return client.post(
        f"/api/games/{game_id}/actions/",
        {"seat": seat, "expected_version": version, "action": action},
        format="json",
    )


def stored(game_id: int) -> int:
    return Event.objects.filter(game_id=game_id).count()


# -- a whole game of each ---------------------------------------------------------------------


@pytest.mark.parametrize("slug", CHANCE_GAMES)
def test_a_physical_game_entered_by_its_scorekeeper_to_the_end(
    slug, table, api, api_for, bob, django_capture_on_commit_callbacks
):
    game = table(slug)
    assert game["mode"] == "log" and game["scorekeeper"] == "alice"
    # Bob agrees to the log alice keeps (its rating waits for that): he accepts his seat.
    assert [s["accepted"] for s in game["seats"]] == [True, False, True]
    accepted = api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    assert accepted.status_code == 201, accepted.json()
    with django_capture_on_commit_callbacks(execute=True):  # the ratings run once committed
        refused, undone = play_to_the_end(api, game["id"], slug, random.Random(slug))
    assert refused and undone

    finished = api.get(f"/api/games/{game['id']}/").json()
    assert finished["status"] == "finished"
    assert [r["player"] for r in finished["result"]] == ["alice", "bob", "Carol"]
    # Rated like any finished game (the guest is left out), on the game_finished path.
    assert set(
        RatingChange.objects.filter(game_id=game["id"]).values_list("user__username", flat=True)
    ) == {"alice", "bob"}
    # The log replays to the same result, the entry taken back skipped.
    row = Game.objects.get(pk=game["id"])
    store.state_cache.clear()
    state = store.load_state(row)
    assert state.is_terminal()
    assert [r["rank"] for r in state.result()] == [r["rank"] for r in finished["result"]]
    assert store.replay(row, row.events.order_by("seq")).result() == state.result()
    # Its bundle verifies offline, the entry taken back skipped there too.
    checked = verify(api.get(f"/api/games/{game['id']}/export/").content)
    assert checked.replayed and checked.events == finished["version"]
    # Once over, the log no longer changes.
    response = api.post(
        f"/api/games/{game['id']}/undo/", {"expected_version": finished["version"]}, format="json"
    )
    assert response.status_code == 409 and "over" in response.json()["error"]


def play_to_the_end(api, game_id: int, slug: str, rng: random.Random) -> tuple[bool, bool]:
    """Enter a whole game, the table's choices drawn from ``rng``: on the way, an impossible
    outcome refused and the sixth entry taken back. Whether each happened."""
    refused = undone = False
    entries = 0
    while (now := due(api, game_id))["due"] is not None:
        seat = "chance" if now["due"] == "chance" else now["seat"]
        if not refused and now["due"] == "chance":
            bad = IMPOSSIBLE[slug]
            assert now["choices"][0]["type"] == bad["type"]
            before = stored(game_id)
            response = enter(api, game_id, "chance", bad, now["version"])
            assert response.status_code == 422
            assert "is not among the chance outcomes possible now" in response.json()["error"]
            assert "expected one of" in response.json()["error"]
            assert stored(game_id) == before
            refused = True
        response = enter(api, game_id, seat, rng.choice(now["choices"]), now["version"])
        assert response.status_code == 201, response.json()
        entries += 1
        if entries == 6:
            # The scorekeeper takes the sixth entry back: the game is where it was before it.
            version = response.json()["version"]
            response = api.post(
                f"/api/games/{game_id}/undo/", {"expected_version": version}, format="json"
            )
            assert response.status_code == 201, response.json()
            (event,) = response.json()["events"]
            assert event["kind"] == "EntryUndone" and event["data"]["undoes"] == version
            again = due(api, game_id)
            assert again["version"] == version + 1
            assert {**again["view"], "version": 0} == {**now["view"], "version": 0}
            assert again["choices"] == now["choices"]
            undone = True
        assert entries < 5000
    return refused, undone


def test_an_undo_is_an_event_and_replay_skips_the_entry_it_takes_back(table, api):
    game = table(DSA)
    now = due(api, game["id"])
    assert now["due"] == "decision" and now["seat"] == 0
    enter(api, game["id"], 0, {"type": "continue"}, now["version"])
    roll = due(api, game["id"])
    assert roll["due"] == "chance"
    response = enter(api, game["id"], "chance", {"type": "roll", "dice": [3, 3]}, roll["version"])
    assert response.status_code == 201
    version = response.json()["version"]
    position = due(api, game["id"])["view"]["divers"][0]["position"]
    assert position == 6

    response = api.post(
        f"/api/games/{game['id']}/undo/", {"expected_version": version}, format="json"
    )
    assert response.status_code == 201
    # Nothing was edited: the roll is still in the log, and a correction follows it.
    kinds = list(Event.objects.filter(game_id=game["id"]).values_list("kind", "data"))
    assert kinds[-2] == (EventKind.CHANCE_RESOLVED, {"action": {"type": "roll", "dice": [3, 3]}})
    assert kinds[-1][0] == EventKind.ENTRY_UNDONE and kinds[-1][1]["undoes"] == version
    after = due(api, game["id"])
    assert after["due"] == "chance" and after["view"]["divers"][0]["position"] == 0
    # Replayed version by version, the log shows the roll, then its correction.
    state = f"/api/games/{game['id']}/state/"
    assert api.get(f"{state}?at={version}").json()["divers"][0]["position"] == 6
    assert api.get(f"{state}?at={version + 1}").json()["divers"][0]["position"] == 0
    response = enter(api, game["id"], "chance", {"type": "roll", "dice": [1, 2]}, after["version"])
    assert response.status_code == 201
    store.state_cache.clear()
    assert due(api, game["id"])["view"]["divers"][0]["position"] == 3
    # Two undos take back the roll, then the decision before it.
    for _ in range(2):
        version = api.get(f"/api/games/{game['id']}/").json()["version"]
        assert (
            api.post(
                f"/api/games/{game['id']}/undo/", {"expected_version": version}, format="json"
            ).status_code
            == 201
        )
    back = due(api, game["id"])
    assert back["due"] == "decision" and back["seat"] == 0 and back["can_undo"] is False
    # The first undo of all: the decision was the first entry; nothing is left to take back.
    response = api.post(
        f"/api/games/{game['id']}/undo/", {"expected_version": back["version"]}, format="json"
    )
    assert response.status_code == 409
    assert "nothing to undo" in response.json()["error"]


# -- bad input: a clear error naming what was expected, and nothing stored ---------------------


def test_an_outcome_not_among_the_chance_outcomes_is_refused(table, api):
    game = table(DSA)
    enter(api, game["id"], 0, {"type": "continue"}, due(api, game["id"])["version"])
    now = due(api, game["id"])
    before = stored(game["id"])
    response = enter(api, game["id"], "chance", {"type": "roll", "dice": [4, 1]}, now["version"])
    assert response.status_code == 422
    error = response.json()["error"]
    assert '{"type": "roll", "dice": [4, 1]} is not among the chance outcomes' in error
    assert (
        '{"type": "roll", "dice": [1, 1]}' in error and '{"type": "roll", "dice": [3, 3]}' in error
    )
    assert stored(game["id"]) == before


def test_a_decision_while_a_chance_outcome_is_due_is_refused(table, api):
    game = table(DSA)
    enter(api, game["id"], 0, {"type": "continue"}, due(api, game["id"])["version"])
    now = due(api, game["id"])
    before = stored(game["id"])
    response = enter(api, game["id"], 0, {"type": "turn_back"}, now["version"])
    assert response.status_code == 422
    assert response.json()["error"] == (
        'a chance outcome is due ("type": "roll"), not a decision: enter it with "seat": "chance"'
    )
    assert stored(game["id"]) == before


def test_a_chance_outcome_while_a_decision_is_due_is_refused(table, api):
    game = table(DSA)
    now = due(api, game["id"])
    before = stored(game["id"])
    response = enter(api, game["id"], "chance", {"type": "roll", "dice": [1, 1]}, now["version"])
    assert response.status_code == 422
    assert response.json()["error"] == (
        'no chance outcome is due: seat 0 (alice) is to decide; enter it with "seat": 0'
    )
    response = enter(api, game["id"], 1, {"type": "continue"}, now["version"])
    assert response.status_code == 422
    assert response.json()["error"] == "it is not seat 1's turn: seat 0 (alice) is to decide"
    assert stored(game["id"]) == before


def test_an_illegal_move_is_refused_with_the_rules_reason(table, api):
    game = table(DSA)
    now = due(api, game["id"])
    response = enter(api, game["id"], 0, {"type": "take"}, now["version"])
    assert response.status_code == 422
    assert response.json()["error"] == "it is the decision at the start of your turn: continue"
    assert stored(game["id"]) == 1


def test_only_the_scorekeeper_enters(table, api_for, bob, make_user):
    game = table(DSA)
    version = api_for(bob).get(f"/api/games/{game['id']}/").json()["version"]
    for user in (bob, make_user("dave")):
        client = api_for(user)
        response = enter(client, game["id"], 0, {"type": "continue"}, version)
        assert response.status_code == 403
        assert response.json()["error"] == (
            "only this table log's scorekeeper (alice) enters its moves and chance outcomes"
        )
        response = client.post(
            f"/api/games/{game['id']}/undo/", {"expected_version": version}, format="json"
        )
        assert response.status_code == 403
        assert client.get(f"/api/games/{game['id']}/log/").status_code == 403
    assert stored(game["id"]) == 1


def test_a_seat_that_is_not_at_the_table_is_refused(table, api):
    game = table(DSA)
    response = enter(api, game["id"], 3, {"type": "continue"}, 1)
    assert response.status_code == 422  # well-formed, not this table's
    assert response.json()["error"] == (
        'seat must be a seat from 0 to 2, or "chance" for a chance outcome'
    )
    assert stored(game["id"]) == 1


def test_a_stale_version_is_a_conflict(table, api):
    game = table(DSA)
    response = enter(api, game["id"], 0, {"type": "continue"}, 5)
    assert response.status_code == 409
    enter(api, game["id"], 0, {"type": "continue"}, 1)
    response = api.post(f"/api/games/{game['id']}/undo/", {"expected_version": 1}, format="json")
    assert response.status_code == 409
    assert stored(game["id"]) == 2


def test_an_entry_sent_twice_with_its_key_is_stored_once(table, api):
    game = table(DSA)
    enter(api, game["id"], 0, {"type": "continue"}, 1)
    body = {
        "seat": "chance",
        "expected_version": 2,
        "action": {"type": "roll", "dice": [2, 3]},
        "idempotency_key": "roll-1",
    }
    first = api.post(f"/api/games/{game['id']}/actions/", body, format="json")
    again = api.post(f"/api/games/{game['id']}/actions/", body, format="json")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["version"] == first.json()["version"] == 3
    assert stored(game["id"]) == 3


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"seats": [{"user": "alice"}, {"bot": "random"}]}, "bots do not play at a table"),
        ({"scorekeeper": "bob", "seats": [{"user": "alice"}, {"guest": "Carol"}]}, "not 'bob'"),
        ({"scorekeeper": None}, "a table log needs a scorekeeper"),
        ({"mode": "play"}, 'scorekeeper is for a table log only: add "mode": "log"'),
        ({"time_control": {"move_seconds": 60}}, "no clock runs in a table log"),
    ],
)
def test_a_table_log_that_cannot_be_is_refused(api, bob, body, error):
    games_before = Game.objects.count()
    payload = {
        "game": DSA,
        "mode": "log",
        "scorekeeper": "alice",
        "seats": [{"user": "alice"}, {"user": "bob"}],
        **body,
    }
    if body.get("scorekeeper", "") is None:
        del payload["scorekeeper"]
    response = api.post("/api/games/", payload, format="json")
    assert response.status_code == 422  # each a well-formed request the table log refuses
    assert error in response.json()["error"]
    assert Game.objects.count() == games_before


def test_an_organiser_may_keep_the_log_of_a_table_they_do_not_sit_at(api, bob, make_user):
    make_user("carol")
    response = api.post(
        "/api/games/",
        {
            "game": "deep-vents",
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "bob"}, {"user": "carol"}],
        },
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["scorekeeper"] == "alice"


def test_chance_outcomes_are_entered_only_in_a_table_log(api, bob):
    game = api.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}]}, format="json"
    ).json()
    response = enter(api, game["id"], "chance", {"type": "roll", "dice": [1, 1]}, game["version"])
    assert response.status_code == 422
    assert "only in a table log" in response.json()["error"]


def test_a_seat_does_not_move_a_table_log_by_itself(table, api_for, bob):
    game = table(DSA)
    response = api_for(bob).post(f"/api/games/{game['id']}/resign/", {"seat": 1}, format="json")
    assert response.status_code == 422
    assert "scorekeeper enters every move" in response.json()["error"]


# -- who sees what -----------------------------------------------------------------------------


def test_a_running_log_shows_others_the_spectator_view_and_all_once_over(table, api, api_for, bob):
    game = table("ventlife")
    now = due(api, game["id"])
    while now["due"] == "chance" or not any(
        e["kind"] == "ChanceResolved" for e in api.get(f"/api/games/{game['id']}/events/").json()
    ):
        seat = "chance" if now["due"] == "chance" else now["seat"]
        enter(api, game["id"], seat, now["choices"][0], now["version"])
        now = due(api, game["id"])
    draws = [
        e
        for e in api.get(f"/api/games/{game['id']}/events/").json()
        if e["kind"] == "ChanceResolved" and e["data"]["action"]["type"] == "draw"
    ]
    assert draws and all("tile" in e["data"]["action"] for e in draws)  # the scorekeeper's
    theirs = [
        e
        for e in api_for(bob).get(f"/api/games/{game['id']}/events/").json()
        if e["kind"] == "ChanceResolved"
    ]
    # Bob sits at seat 1, but while the game runs he sees the log as a spectator does.
    assert theirs and not any("tile" in e["data"]["action"] for e in theirs)
    assert api_for(bob).get(f"/api/games/{game['id']}/state/?seat=1").status_code == 403
    assert api.get(f"/api/games/{game['id']}/state/?seat=1").status_code == 200  # scorekeeper
    spectator = api_for(bob).get(f"/api/games/{game['id']}/state/").json()
    rules = get_rules("ventlife")
    fresh = rules.new_game(3, {})
    assert set(spectator) >= set(fresh.view(None))
    # Entered to the end, the whole log is public.
    while now["due"] is not None:
        seat = "chance" if now["due"] == "chance" else now["seat"]
        enter(api, game["id"], seat, now["choices"][0], now["version"])
        now = due(api, game["id"])
    public = api_for(bob).get(f"/api/games/{game['id']}/events/").json()
    assert all(
        "tile" in e["data"]["action"]
        for e in public
        if e["kind"] == "ChanceResolved" and e["data"]["action"]["type"] == "draw"
    )


def test_the_schema_documents_table_logs(api):
    schema = api.get("/api/schema/?format=json").json()
    assert "/api/games/{id}/undo/" in schema["paths"]
    assert "/api/games/{id}/log/" in schema["paths"]
    assert "/api/tournaments/{id}/tables/{table}/log/" in schema["paths"]
    create = schema["components"]["schemas"]["GameCreateIn"]["properties"]
    assert {"mode", "scorekeeper"} <= set(create)
    seat = schema["components"]["schemas"]["ActionIn"]["properties"]["seat"]
    assert {"type": "string", "enum": ["chance"]} in seat["oneOf"]
    assert "scorekeeper" in schema["components"]["schemas"]["GameOut"]["properties"]


# -- the pages ---------------------------------------------------------------------------------


def test_the_scorekeepers_page_and_everyone_elses(table, client, alice, bob):
    game = table("ventlife")
    url = f"/games/{game['id']}/log/"
    assert client.get(url)["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    page = client.get(url).content.decode()
    assert "What to enter, and when" in page
    assert "shows it to the scorekeeper alone" in page
    # The first tile drawn, entered; alice's game page offers her the entry page.
    now = client.get(f"/api/games/{game['id']}/log/").json()
    tile = now["choices"][0]
    assert tile["type"] == "draw"
    client.post(
        f"/api/games/{game['id']}/actions/",
        {"seat": "chance", "expected_version": now["version"], "action": tile},
        content_type="application/json",
    )
    assert 'id="keep-log"' in client.get(f"/games/{game['id']}/").content.decode()
    # Bob sits at the table but watches: sent to the game page, where nothing shows the tile.
    client.force_login(bob)
    assert client.get(url)["Location"] == f"/games/{game['id']}/"
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert 'id="keep-log"' not in page
    assert f'"tile": "{tile["tile"]}"' not in page
    # ... and is told he plays at it, not that he is watching (issue 37).
    assert "You play at this table; alice enters its moves here." in page
    assert "You are watching this game" not in page


def test_a_table_with_a_bot_is_not_logged(alice):
    from accounts.bots import bot_user
    from core.errors import Conflict
    from games.tablelog import services as logs

    game = table_results.table_game_create(
        slug=DSA, users=[alice, bot_user("random")], created_by=alice
    )
    with pytest.raises(Conflict, match="bots do not play at a table log"):
        logs.table_log_start(game=game, by=alice)
    assert Game.objects.get(pk=game.pk).mode == "record"
    assert stored(game.pk) == 1


def test_a_table_log_started_from_its_page(client, alice, bob):
    client.force_login(alice)
    page = client.get("/games/log/new/").content.decode()
    assert "Keep a table&#x27;s log" in page or "Keep a table's log" in page
    form = {"game": "abyss", "player_0": "alice", "player_1": "bob", "player_2": "Carol"}
    response = client.post("/games/log/new/", {**form, "guest_2": "on"})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/log/"
    assert game.mode == "log" and game.scorekeeper == alice
    assert [s.name for s in game.seats.all()] == ["alice", "bob", "Carol (guest)"]
    # A name that is no member, not marked as a guest: said so, and nothing is created.
    response = client.post("/games/log/new/", {**form, "player_2": "nobody"})
    assert response.status_code == 200
    assert "seat 2: no user &#x27;nobody&#x27;" in response.content.decode()
    assert Game.objects.count() == 1


def test_a_finished_table_log_is_analysed_like_a_game_played_here(
    table, api, settings, django_capture_on_commit_callbacks
):
    settings.HADAL_ANALYSIS = {"iterations": 4, "luck_samples": 1, "per_game": {}}
    game = table(DSA)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(api, game["id"], DSA, random.Random(3))
    with django_capture_on_commit_callbacks(execute=True):  # eager: computed at once
        first = api.get(f"/api/games/{game['id']}/analysis/")
    answer = first if first.status_code == 200 else api.get(f"/api/games/{game['id']}/analysis/")
    assert answer.status_code == 200, answer.json()
    report = answer.json()
    taken_back = set(
        Event.objects.filter(game_id=game["id"], kind="EntryUndone").values_list(
            "data__undoes", flat=True
        )
    )
    judged = {d["version"] for d in report["decisions"]} | {c["version"] for c in report["luck"]}
    assert taken_back and not judged & taken_back  # the entry taken back is not judged
    assert [s["seat"] for s in report["seats"]] == [0, 1, 2]
