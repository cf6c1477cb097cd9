"""A new tournament's settings (league.tournament_spec): checked together as a spec is made and
completed; their bounds stated once, for the API's serializer, the page's form and the schema."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import InvalidInput, Refused
from league.forms import TournamentForm
from league.models import Tournament
from league.standings import DEFAULT_TIEBREAKS
from league.tournament_spec import BOUNDS, TournamentSpec
from tests.league.test_pages import org, players, text, tournament_post  # noqa: F401

DSA, DV = "deep-sea-adventure", "deep-vents"
FOUR = ["ann", "ben", "cat", "dan"]


def spec(**overrides) -> TournamentSpec:
    settings = {
        "name": "Autumn open",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 3,
        "mode": "table",
        "players": FOUR,
    }
    return TournamentSpec(**{**settings, **overrides})


def test_a_spec_is_made_complete():
    made = spec(game=DV, players=list(FOUR), advance=3, placement_points={"2": [2, 0]})
    assert made.options == {"starting_bid": True}  # tournaments bid for first player
    assert made.placement_points["2"] == [2, 0] and made.placement_points["3"] == [5, 3, 1]
    assert made.tiebreaks == list(DEFAULT_TIEBREAKS)
    assert made.advance == 1  # a Swiss without a top cut eliminates nobody
    assert made.players == tuple(FOUR)


def test_a_spec_is_frozen():
    with pytest.raises(AttributeError):
        spec().rounds = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    "overrides, error, message",
    [
        ({"game": "chess"}, InvalidInput, "unknown game 'chess'"),
        (
            {"game": "oceans", "mode": "online"},
            Refused,
            'recorded from tables only: use mode "table"',
        ),
        ({"format": "elimination", "top_cut": 4}, Refused, "a top cut follows Swiss rounds"),
        ({"top_cut": 1}, Refused, "a top cut takes at least two players"),
        (
            {"format": "elimination", "advance": 2},
            Refused,
            "advance must be from 1 to 1 at tables of 2",
        ),
        ({"mode": "online", "options": {"turbo": True}}, Refused, "unknown option"),
        ({"mode": "online", "round_minutes": 30}, Refused, "round_minutes is for tournaments"),
        ({"players": ["ann", "ann", "ben"]}, Refused, "a player is entered twice"),
        ({"cap": 3}, Refused, "the cap of 3 is below the 4 players entered"),
        ({"players": ["ann"]}, Refused, "a tournament needs at least two players"),
        ({"table_size": 4, "players": ["ann", "ben"]}, Refused, "cannot fill a table of 4"),
        ({"top_cut": 8}, Refused, "a top cut of 8 is larger than the field of 4"),
        ({"placement_points": {"5": [1, 1, 1, 1, 1]}}, Refused, "placement_points['5'] must"),
        ({"placement_points": {"3": [5, 1]}}, Refused, "placement_points['3'] must list 3"),
        ({"tiebreaks": ["wins", "wins"]}, InvalidInput, "tiebreaks must be a list from"),
        ({"time_control": {"move_seconds": 60}}, Refused, "time_control is for online"),
        (
            {"mode": "online", "time_control": {"move_seconds": 1}},
            InvalidInput,
            "time_control.move_seconds must be a whole number from 5",
        ),
    ],
)
def test_settings_that_do_not_fit_together_are_refused(overrides, error, message):
    with pytest.raises(error) as refused:
        spec(**overrides)
    assert type(refused.value) is error and message in str(refused.value)


def test_open_entry_may_start_with_fewer_than_two():
    assert spec(entry_mode="open", players=[]).players == ()
    # ... but its top cut must still be one the rounds can seat
    with pytest.raises(Refused, match="top cut: 2 players cannot fill a table of 4"):
        spec(entry_mode="open", players=[], top_cut=2, table_size=4)


@pytest.mark.django_db
def test_the_api_and_the_form_take_the_same_bounds(client):
    schema = client.get("/api/schema/?format=json").json()
    fields = schema["components"]["schemas"]["TournamentIn"]["properties"]
    for setting, (low, high) in BOUNDS.items():
        assert (fields[setting]["minimum"], fields[setting]["maximum"]) == (low, high), setting
        if setting != "advance":  # the form leaves it to the spec: it counts only in a knockout
            field = TournamentForm.base_fields[setting]
            assert (field.min_value, field.max_value) == (low, high), setting


@pytest.mark.django_db
@pytest.mark.parametrize("setting", [s for s in BOUNDS if s != "advance"])
def test_a_setting_out_of_bounds_is_refused_on_the_page_in_the_apis_words(
    client,
    org,  # noqa: F811
    players,  # noqa: F811
    setting,
):
    low, high = BOUNDS[setting]
    client.force_login(org)
    response = client.post(reverse("tournament-new"), tournament_post(**{setting: str(high + 1)}))
    assert response.status_code == 200
    assert f"{setting} must be a whole number from {low} to {high}" in text(response)
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"bye_points": "-1"}, "bye_points must be a number from 0"),
        ({"name": "Cup\x01"}, "name may not contain control characters"),
        (
            {"format": "elimination", "advance": "0"},
            "advance must be from 1 to 1 at tables of 2",
        ),
    ],
)
def test_the_page_refuses_what_the_api_refuses(
    client,
    org,  # noqa: F811
    players,  # noqa: F811
    overrides,
    message,
):
    client.force_login(org)
    response = client.post(reverse("tournament-new"), tournament_post(**overrides))
    assert response.status_code == 200 and message in text(response)
    assert not Tournament.objects.exists()
