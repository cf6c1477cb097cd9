"""For the venue: a round's pairings and a score slip per table, to print, and the projector's
page (the latest round in big type, its clock, a QR code to the standings)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from games.catalog import game_name
from league import selectors, visibility
from league.tournament_pages.words import bracket_shown


def tournament_print(request, pk: int, number: int):
    """Round ``number``'s pairings and a score slip per table, for printing (one page for the
    pairings, then the slips)."""
    tournament = visibility.tournament_or_404(pk, request.user)
    round_ = selectors.live_rounds(tournament).filter(number=number).first()
    if round_ is None:
        raise Http404("no such round")
    out = selectors.round_out(round_)
    return render(
        request,
        "league/tournament_print.html",
        {
            "tournament": tournament,
            "name": game_name(tournament.slug),
            "round": out,
            "find": selectors.find_your_table(out),
            "bid": bool(tournament.options.get("starting_bid")),
            "bracket": bracket_shown(tournament),
        },
    )


def tournament_projector(request, pk: int):
    """For a screen at the venue: the latest round's tables in big type, its clock counting
    down, and a QR code to the public standings."""
    from league.venue import qr_svg

    tournament = visibility.tournament_or_404(pk, request.user)
    latest = selectors.live_rounds(tournament).last()
    url = request.build_absolute_uri(reverse("tournament-detail", args=[pk]) + "#standings")
    out = selectors.round_out(latest) if latest else None
    return render(
        request,
        "league/tournament_projector.html",
        {
            "tournament": tournament,
            "round": out,
            "find": selectors.find_your_table(out) if out else [],
            "qr": qr_svg(url),
            "standings_url": url,
            "champion": selectors.tournament_champion(tournament),
        },
    )
