"""Pages for ratings: a leaderboard per game and a player page with rating-history charts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from games.rules import get_rules, registered
from league import selectors

User = get_user_model()
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 180, 28


def ratings_index(request):
    return redirect("leaderboard", slug=sorted(registered())[0])


def leaderboard(request, slug: str):
    if slug not in registered():
        raise Http404("unknown game")
    rows = [{**selectors.rating_entry(r), "openskill": r.openskill_mu - 3 * r.openskill_sigma,
             "is_bot": selectors.is_bot(r.user)} for r in selectors.leaderboard(slug)[:200]]
    games = [(s, m.spec.name) for s, m in sorted(registered().items())]
    return render(request, "league/leaderboard.html", {
        "slug": slug, "name": get_rules(slug).spec.name, "rows": rows, "games": games})


def player(request, username: str):
    user = get_object_or_404(User, username=username, is_active=True)
    record = selectors.player_record(user)
    for entry in record["ratings"]:
        entry["name"] = get_rules(entry["game"]).spec.name
        entry["chart"] = history_chart([1500.0] + [h["after"] for h in entry["history"]])
    return render(request, "league/player.html", {"record": record})


def history_chart(values: list[float]) -> dict:
    """Polyline points and axis labels for an SVG chart of a rating over games."""
    low, high = min(values), max(values)
    if high - low < 20:  # keep a flat line readable
        low, high = low - 10, high + 10
    span_x = CHART_WIDTH - 2 * CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD
    step = span_x / max(1, len(values) - 1)
    points = [(CHART_PAD + i * step, CHART_PAD + (high - v) / (high - low) * span_y)
              for i, v in enumerate(values)]
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "pad": CHART_PAD,
            "points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points),
            "last": points[-1], "high": high, "low": low, "games": len(values) - 1,
            "right": CHART_WIDTH - CHART_PAD, "bottom": CHART_HEIGHT - CHART_PAD}
