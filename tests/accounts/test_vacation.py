"""Away from the board (accounts.vacations): days within a yearly allowance, scheduled, taken
now or ended; refusals that say why and store nothing; the API at /api/me/vacations/ and the
settings page's section."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import vacations
from accounts.models import Vacation

pytestmark = pytest.mark.django_db
URL = "/api/me/vacations/"


def iso(moment) -> str:
    return moment.isoformat()


def later(**kwargs):
    return timezone.now() + timedelta(**kwargs)


def test_a_scheduled_vacation_is_listed_with_the_days_it_counts(api, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 30
    starts = later(days=2)
    made = api.post(
        URL,
        {"starts": iso(starts), "ends": iso(starts + timedelta(days=3, hours=2))},
        format="json",
    )
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["state"] == "scheduled" and body["days"] == 4  # three days and a part day
    listed = api.get(URL).json()
    assert listed["allowance"] == 30 and listed["away"] is None
    assert [v["id"] for v in listed["vacations"]] == [body["id"]]
    if vacations.year_of(starts) == vacations.year_of(timezone.now()):
        assert listed["days_left"] == 26


@pytest.mark.parametrize(
    ("starts", "ends", "words"),
    [
        ({"days": 3}, {"days": 2}, "must end after it starts"),
        ({"days": -2}, {"days": 2}, "cannot start in the past"),
        ({"days": 1}, {"days": 45}, "and you have 30 days left"),
    ],
)
def test_a_bad_vacation_is_a_422_saying_why_and_stores_nothing(api, settings, starts, ends, words):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 30
    refused = api.post(
        URL, {"starts": iso(later(**starts)), "ends": iso(later(**ends))}, format="json"
    )
    assert refused.status_code == 422
    assert words in refused.json()["error"]
    assert not Vacation.objects.exists()


def test_overlapping_vacations_are_refused(api):
    first = api.post(URL, {"starts": iso(later(days=5)), "ends": iso(later(days=8))}, format="json")
    assert first.status_code == 201
    again = api.post(URL, {"starts": iso(later(days=7)), "ends": iso(later(days=9))}, format="json")
    assert again.status_code == 422
    assert "overlaps your vacation from" in again.json()["error"]
    assert Vacation.objects.count() == 1


def test_a_malformed_date_is_a_400(api):
    refused = api.post(URL, {"starts": "soon", "ends": iso(later(days=2))}, format="json")
    assert refused.status_code == 400
    assert not Vacation.objects.exists()


def test_days_already_used_this_year_count(alice, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 4
    now = timezone.now().replace(month=6, day=1, hour=12)
    vacations.vacation_schedule(user=alice, starts_at=now, ends_at=now + timedelta(days=3), now=now)
    with pytest.raises(vacations.Refused, match="2 days away, and you have 1 day left"):
        vacations.vacation_schedule(
            user=alice,
            starts_at=now + timedelta(days=10),
            ends_at=now + timedelta(days=12),
            now=now,
        )


def test_away_now_and_back(api, alice):
    away = api.post(f"{URL}away/")
    assert away.status_code == 201 and away.json()["ends"] is None
    assert api.get(URL).json()["away"]["id"] == away.json()["id"]
    again = api.post(f"{URL}away/")
    assert again.status_code == 422 and again.json()["error"] == "you are away already"
    back = api.post(f"{URL}back/")
    assert back.status_code == 200 and back.json()["state"] == "over"
    assert back.json()["days"] == 1
    not_away = api.post(f"{URL}back/")
    assert not_away.status_code == 422 and not_away.json()["error"] == "you are not away"


def test_away_now_with_no_day_left_is_refused(api, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 0
    refused = api.post(f"{URL}away/")
    assert refused.status_code == 422 and "no days away left" in refused.json()["error"]
    assert not Vacation.objects.exists()


def test_a_vacation_to_come_is_called_off_one_under_way_is_not(api, api_for, bob):
    made = api.post(
        URL, {"starts": iso(later(days=5)), "ends": iso(later(days=6))}, format="json"
    ).json()
    assert api_for(bob).delete(f"{URL}{made['id']}/").status_code == 404  # not bob's
    assert api.delete(f"{URL}{made['id']}/").status_code == 204
    assert not Vacation.objects.exists()
    assert api.delete(f"{URL}{made['id']}/").status_code == 404
    now = api.post(f"{URL}away/").json()
    refused = api.delete(f"{URL}{now['id']}/")
    assert refused.status_code == 409 and "say you are back" in refused.json()["error"]


def test_the_auto_opt_in(api):
    assert api.get(URL).json()["auto"] is False
    assert api.put(f"{URL}settings/", {"auto": True}, format="json").json()["auto"] is True
    for wrong in ("perhaps", 0, "true", None):
        assert api.put(f"{URL}settings/", {"auto": wrong}, format="json").status_code == 400


def test_a_taken_now_vacation_ends_once_the_days_run_out(alice, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 2
    now = timezone.now().replace(month=6, day=1)
    away = vacations.vacation_away_now(user=alice, now=now)
    assert vacations.vacations_sweep(now=now + timedelta(days=1)) == 0
    assert vacations.vacations_sweep(now=now + timedelta(days=2, minutes=1)) == 1
    away.refresh_from_db()
    assert away.state == "over" and away.ends_at == now + timedelta(days=2)


def test_the_schema_describes_the_vacations(api):
    schema = api.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/me/vacations/"])
    assert "422" in paths["/api/me/vacations/"]["post"]["responses"]
    assert "204" in paths["/api/me/vacations/{id}/"]["delete"]["responses"]
    assert "201" in paths["/api/me/vacations/away/"]["post"]["responses"]


# -- the settings page ------------------------------------------------------------------------------


def test_the_settings_page_shows_the_days_left_and_books_a_vacation(client, alice, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 30
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "Away from the board" in page and "30 days</strong> left" in page
    first = timezone.localdate() + timedelta(days=3)
    booked = client.post(
        "/accounts/settings/away/schedule/",
        {"starts": first.isoformat(), "ends": (first + timedelta(days=1)).isoformat()},
    )
    assert booked.status_code == 302
    vacation = Vacation.objects.get(user=alice)
    assert vacations.days_counted(vacation, timezone.now()) == 2
    page = client.get("/accounts/settings/").content.decode()
    back = first + timedelta(days=2)  # the morning after the last day
    assert f"{first:%-d %B}, 00:00 until {back:%-d %B}, 00:00 (2 days)" in page


def test_the_settings_page_says_why_a_vacation_is_refused(client, alice, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 1
    client.force_login(alice)
    first = timezone.localdate() + timedelta(days=3)
    refused = client.post(
        "/accounts/settings/away/schedule/",
        {"starts": first.isoformat(), "ends": (first + timedelta(days=4)).isoformat()},
    )
    assert refused.status_code == 422
    assert "That vacation is 5 days away, and you have 1 day left" in refused.content.decode()
    assert not Vacation.objects.exists()
    backwards = client.post(
        "/accounts/settings/away/schedule/",
        {"starts": first.isoformat(), "ends": (first - timedelta(days=1)).isoformat()},
    )
    assert "The last day comes before the first" in backwards.content.decode()
    far = client.post(
        "/accounts/settings/away/schedule/", {"starts": first.isoformat(), "ends": "9999-12-31"}
    )
    assert far.status_code == 422 and "too far ahead" in far.content.decode()
    gone = client.post(
        "/accounts/settings/away/schedule/", {"starts": "2001-01-01", "ends": first.isoformat()}
    )
    assert gone.status_code == 422 and "That day has passed" in gone.content.decode()
    assert not Vacation.objects.exists()


def test_away_now_and_back_from_the_settings_page(client, alice):
    client.force_login(alice)
    client.post("/accounts/settings/away/now/")
    page = client.get("/accounts/settings/").content.decode()
    assert "You are away until you say you are back" in page and "I am back" in page
    client.post("/accounts/settings/away/back/")
    assert Vacation.objects.get(user=alice).state == "over"
    client.post("/accounts/settings/away/auto/", {"auto": "on"})
    assert vacations.auto_on(alice)
