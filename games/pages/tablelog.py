"""The scorekeeper's page of a table log (games.tablelog), made for a phone: what is due now, the
choices the rules allow as big buttons or a searchable list, and "undo the last entry".
static/js/log.js draws it and posts the entries through the JSON API."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from core.errors import InvalidInput
from games.api.serializers import GameOut
from games.api.tablelog import log_due
from games.catalog import game_name
from games.models import Game, GameMode, GameStatus, Seat
from games.play import reads
from games.rules import registered
from games.tablelog import services as logs

# What the scorekeeper enters for each game, and when, in the game's words. Where the table
# keeps something secret, the person who sees it shows the scorekeeper (or is the scorekeeper).
GUIDANCE: dict[str, list[str]] = {
    "deep-sea-adventure": [
        "Every turn: whether the diver goes on or turns back, then the two dice as rolled, "
        "then whether the diver takes, drops or leaves the treasure where it lands.",
        "Treasure values stay face down while the divers are out: enter nothing about them "
        "until the round ends. When the round ends, turn up each chip brought back to the "
        "submarine, in seat order and the order held, and enter its value.",
        "Lost chips go to the end of the trail in stacks of three: enter the level (the dots "
        "on the back) of each chip as it goes onto the stacks, in the order you stack them.",
    ],
    "deep-vents": [
        "Every hex turned up, as it is turned up: at the start the five hexes of the row, then "
        "the top of the stack; after each turn, the hex newly turned up. With the starting "
        "bid, who opens the bidding.",
        "Each decision as the player makes it: the bids, the hex taken, where it is placed, "
        "each hex grown or triggered in order, shells against attacks, the hexes decimated.",
        "Nothing is hidden at a Deep Vents table.",
    ],
    "abyss": [
        "Who goes first; every Lord and Location turned up; every card revealed when a player "
        "explores, as it is revealed; each offer bought or declined, in turn order.",
        "Monster tokens are drawn face down: the player who draws one shows it to the "
        "scorekeeper, who enters its value then. The Hunter's steal likewise: the two players "
        "show the scorekeeper the token taken.",
        "Hands and the Council's stacks are made of cards the table has seen revealed: the log "
        "follows them by itself; nothing more is entered when hands are shown at the end.",
    ],
    "ventlife": [
        "The species, if they are drawn at random; then every tile drawn from the bag.",
        "A tile in a player's hand is secret: the player who draws it shows it to the "
        "scorekeeper alone, who enters it as it is drawn. The others see it once placed.",
        "Each tile placed (where, and which way round), each covered creature moved, and the "
        "creatures placed, one at a time, until the player stops.",
    ],
}
GENERAL = [
    "Enter every move as it happens at the table; the rules check each one and refuse what "
    "cannot happen, saying why.",
    "A mistake can be taken back with “Undo the last entry” before the next entry; "
    "the log keeps the correction.",
]


@login_required
def game_log_page(request, pk: int):
    """The scorekeeper enters the game here; anyone else is sent to the game page."""
    game = get_object_or_404(
        Game.objects.prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user__profile"))  # as GameOut reads
        ),
        pk=pk,
        mode=GameMode.LOG,
    )
    if not reads.is_scorekeeper(game, request.user) or game.status != GameStatus.ACTIVE:
        return redirect("game-detail", pk=game.pk)
    page = {
        "game": GameOut(game).data,
        "name": game_name(game.slug),
        "due": log_due(game, request.user),
        "events": reads.game_events(game=game, user=request.user),
        "seats": [s.name for s in game.seats.all()],
        "api": {
            "game": reverse("api-game", args=[game.pk]),
            "log": reverse("api-game-log", args=[game.pk]),
            "actions": reverse("api-game-actions", args=[game.pk]),
            "undo": reverse("api-game-undo", args=[game.pk]),
            "events": reverse("api-game-events", args=[game.pk]),
        },
        "game_page": reverse("game-detail", args=[game.pk]),
    }
    return render(
        request,
        "games/log_entry.html",
        {
            "game": game,
            "name": page["name"],
            "guidance": GUIDANCE.get(game.slug, []) + GENERAL,
            "page": page,
        },
    )


# -- a new table log ------------------------------------------------------------------------------

SEATS = 6  # Deep Sea Adventure's most


class TableLogForm(forms.Form):
    """The game and the people at the table, in seat order (the first plays first): a member
    by username, or anyone else as a guest by name. Whoever fills it in keeps the log."""

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        games = sorted(
            (m.spec for m in registered().values() if m.spec.chance), key=lambda spec: spec.name
        )
        self.fields["game"] = forms.ChoiceField(
            label="Game", choices=[(spec.slug, spec.name) for spec in games]
        )
        for i in range(SEATS):
            self.fields[f"player_{i}"] = forms.CharField(
                label=f"Player {i + 1}",
                required=i < 2,
                max_length=60,
                initial=user.username if i == 0 else "",
            )
            self.fields[f"guest_{i}"] = forms.BooleanField(label="guest", required=False)

    def rows(self):
        return [(self[f"player_{i}"], self[f"guest_{i}"]) for i in range(SEATS)]

    def seats(self) -> list[dict[str, str]]:
        data = self.cleaned_data
        return [
            {"guest": data[f"player_{i}"]} if data[f"guest_{i}"] else {"user": data[f"player_{i}"]}
            for i in range(SEATS)
            if data[f"player_{i}"]
        ]


@login_required
def table_log_new(request):
    """Start a table log kept by the signed-in user: then straight to its entry page."""
    form = TableLogForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = logs.log_create(
                slug=form.cleaned_data["game"],
                seats=form.seats(),
                options={},
                scorekeeper=request.user.username,
                created_by=request.user,
            )
        except InvalidInput as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("game-log", pk=game.pk)
    return render(request, "games/log_new.html", {"form": form})
