"""Each mismatch schemathesis's full run found between the schema and the server, pinned: the
schema states the rule (400 when broken) and the server applies it, or the server answers
what the schema cannot know with 404, 409 or 422 (config.schema draws the line)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.play import services
from league.services import leagues
from tests.tokens import key_for

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"


@pytest.fixture
def api(alice, bob):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice)}")
    return client


@pytest.fixture
def schema(api):
    return api.get("/api/schema/?format=json").json()


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )


def component(schema, name):
    return schema["components"]["schemas"][name]["properties"]


# -- the schema states the rule ---------------------------------------------------------------


def test_text_that_may_not_be_blank_says_so_and_names_its_characters(schema):
    name = component(schema, "LeagueIn")["name"]
    assert name["minLength"] == 1 and "\\u0000-\\u0008" in name["pattern"]
    assert "minLength" not in component(schema, "LeagueIn")["description"]


def test_a_list_of_results_states_its_length(schema):
    results = component(schema, "MatchIn")["results"]
    assert (results["minItems"], results["maxItems"]) == (1, 8)


def test_games_and_bots_are_named_from_what_is_registered(schema):
    assert "oceans" in component(schema, "MatchIn")["game"]["enum"]
    seat = component(schema, "GameCreateIn")["seats"]["items"]["oneOf"]
    bot = next(s for s in seat if "bot" in s["properties"])["properties"]["bot"]
    assert {"random", "mcts"} <= set(bot["enum"])


def test_a_date_played_is_a_date_or_a_date_time(schema):
    formats = [s["format"] for s in component(schema, "MatchIn")["played_at"]["anyOf"]]
    assert formats == ["date", "date-time"]


def test_a_stream_message_is_an_event_whose_data_is_the_json(schema):
    stream = schema["paths"]["/api/games/{id}/stream/"]["get"]["responses"]["200"]
    data = stream["content"]["text/event-stream"]["schema"]["properties"]["data"]
    # In extensions: OpenAPI 3.0 has no keyword for what a string holds (test_schema_valid).
    assert data["type"] == "string" and data["x-contentMediaType"] == "application/json"
    assert data["x-contentSchema"] == {"$ref": "#/components/schemas/GameStreamMessage"}
    assert data["description"] == "one line of JSON: GameStreamMessage"


def test_reads_the_state_can_refuse_document_their_statuses(schema):
    assert "409" in schema["paths"]["/api/games/{id}/export/"]["get"]["responses"]
    assert "422" in schema["paths"]["/api/games/{id}/events/"]["get"]["responses"]


# -- the server applies it --------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [{"name": 0}, {"name": 1.5}, {"name": "\x07bell"}, {"name": "   "}, {"name": "\u3000"}],
    ids=["a number", "a fraction", "a control character", "spaces", "a wide space"],
)
def test_a_name_that_is_not_text_is_a_400(api, body):
    response = api.post("/api/leagues/", body, format="json")
    assert response.status_code == 400, response.json()


@pytest.mark.parametrize(
    "query", ["status=AAA", "status=", "scope=everything", "game=chess", "game="]
)
def test_a_games_list_query_the_schema_forbids_is_a_400(api, game, query):
    assert api.get(f"/api/games/?{query}").status_code == 400


@pytest.mark.parametrize("page", ["", "0", "x", "2&page=1", "²"])
def test_a_page_that_is_not_one_whole_number_is_a_404(api, game, page):
    response = api.get(f"/api/ratings/?game={DSA}&page={page}")
    assert response.status_code == 404 and response.json()["error"]


def test_the_first_page_is_still_there(api, game):
    assert api.get("/api/games/?page=1").json()["count"] == 1


def test_a_blank_game_in_the_standings_query_is_a_400(api, alice):
    leagues.league_create(name="Harbour", created_by=alice)
    assert api.get("/api/leagues/harbour/standings/?game=").status_code == 400


def test_a_time_control_the_schema_forbids_is_a_400(api):
    body = {
        "game": DSA,
        "seats": [{"user": "alice"}, {"user": "bob"}],
        "time_control": {"move_seconds": 60, "increment_seconds": 0},  # a bank's, not a move's
    }
    assert api.post("/api/games/", body, format="json").status_code == 400


@pytest.mark.parametrize(
    "path", ["/api/games/{huge}/rematch/", "/api/games/{huge}/join/", "/api/games/{huge}/"]
)
def test_an_id_beyond_a_bigint_names_nothing(api, path):
    # An id of 24 digits reached SQLite (OverflowError) as a 500.
    response = api.post(path.format(huge="9" * 24), {"seat": 0}, format="json")
    assert response.status_code == 404 and response.json()["error"]
    assert api.post(path.format(huge=2**63), {}, format="json").status_code == 404


# -- what the schema cannot know --------------------------------------------------------------


def test_a_seat_or_a_version_the_game_has_not_is_a_422(api, game):
    assert api.get(f"/api/games/{game.pk}/actions/?seat=5").status_code == 422
    assert api.get(f"/api/games/{game.pk}/actions/?seat=12").status_code == 400
    assert api.get(f"/api/games/{game.pk}/events/?after=99").status_code == 422
    assert api.get(f"/api/games/{game.pk}/events/?after={2**31}").status_code == 400


def test_a_name_that_names_nothing_is_a_404(api):
    body = {"game": DSA, "seats": [{"user": "alice"}, {"user": "nobody"}]}
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 404 and "no user 'nobody'" in response.json()["error"]


def test_a_league_name_taken_is_a_409(api):
    assert api.post("/api/leagues/", {"name": "Harbour"}, format="json").status_code == 201
    assert api.post("/api/leagues/", {"name": "harbour"}, format="json").status_code == 409


def test_a_game_recorded_from_tables_only_is_a_422_to_play(api):
    body = {"game": "oceans", "seats": [{"user": "alice"}, {"user": "bob"}]}
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 422 and "POST /api/matches/" in response.json()["error"]


def test_every_operation_states_its_token_scope(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            scope = operation.get("x-scope")
            assert scope in ("read", "play", "record", "organise", "every", "none"), (path, method)
            assert "Token scope:" in operation["description"], (path, method)
    move = schema["paths"]["/api/games/{id}/actions/"]["post"]
    assert move["x-scope"] == "play"
    assert move["x-scope-otherwise"] == {"scope": "record", "when": "a table log"}
    assert schema["paths"]["/api/games/{id}/stream/"]["get"]["x-scope"] == "read"
    assert schema["paths"]["/api/tournaments/"]["post"]["x-scope"] == "organise"


def test_the_token_scheme_lists_the_scopes(schema):
    described = schema["components"]["securitySchemes"]["tokenAuth"]["description"]
    for scope in ("`read`", "`play`", "`record`", "`organise`"):
        assert scope in described


def test_a_delete_that_answers_with_a_body_documents_200_not_204(schema, api, alice):
    """Found by the full run: drf-spectacular documents a DELETE as 204 unless told, and
    revoking a link, removing a member or a tournament's organiser answer 200 with what is
    left."""
    for path in (
        "/api/leagues/{slug}/links/{id}/",
        "/api/leagues/{slug}/members/{player}/",
        "/api/tournaments/{id}/organisers/{player}/",
    ):
        assert "200" in schema["paths"][path]["delete"]["responses"], path
        assert "204" not in schema["paths"][path]["delete"]["responses"], path
    slug = api.post("/api/leagues/", {"name": "Lantern Fish"}, format="json").json()["slug"]
    link = api.post(f"/api/leagues/{slug}/links/", {}, format="json").json()
    assert api.delete(f"/api/leagues/{slug}/links/{link['id']}/").status_code == 200
