"""Forms for the pages: starting a game.

Forms check the shape of what was typed; whether a game can be created with it (players for
the game, users that exist, option values) is decided by ``services.game_create``, whose
``InvalidInput`` messages the view shows as form errors.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.bots import BOTS, bot_name
from games.play import clocks
from games.rules import registered
from games.rules.base import GameSpec, OptionSpec
from games.rules.ventlife_data import SPECIES

# An option on the new-game page in its game's words, where the rule module's (written for the
# API: values, ids) would show code: the label, the help, each choice and each item to tick, by
# (game, option). Ventlife's from its rulebook: "Four of the seven species are used each game.
# The table creator chooses how: First game, Random, Choose (ticks four), Draft".
OPTION_WORDS: dict[tuple[str, str], dict[str, Any]] = {
    ("ventlife", "species"): {
        "label": "Species in play",
        "help": "Four of the seven species are used each game.",
        "choices": {
            "first-game": "First game: Tube Worms, Volcano Snails, Blind Vent Shrimp and Yeti Crabs",
            "random": "Random: four at random",
            "draft": "Draft: the players take turns to choose",
        },
        "items": {species.id: species.name for species in SPECIES},
        "pick": "Or choose the four yourself",
    },
}

# The value of a seat's "who" choice when a person (named by username) takes the seat, and
# when the seat is left open for anyone to take (games.play.lobby).
PERSON = "person"
OPEN = "open"


class ClockForm(forms.Form):
    """The clock fields a game and a tournament share: seconds per move, or minutes in each
    player's bank plus seconds added each turn; and what running out means."""

    move_seconds = forms.IntegerField(
        label="Seconds per move",
        required=False,
        min_value=5,
        max_value=clocks.MOST_SECONDS,
        help_text="Leave both clocks empty to play without one.",
    )
    bank_minutes = forms.IntegerField(
        label="Or minutes per player",
        required=False,
        min_value=1,
        max_value=clocks.MOST_SECONDS // 60,
        help_text="Each player's time for the whole game.",
    )
    increment_seconds = forms.IntegerField(
        label="Seconds added each turn",
        required=False,
        min_value=0,
        max_value=3600,
        help_text="With minutes per player.",
    )
    on_timeout = forms.ChoiceField(
        label="When the clock runs out",
        required=False,
        initial="random",
        choices=[("random", "a random move is played"), ("forfeit", "the player forfeits")],
    )

    def clean(self):
        data = super().clean()
        if data.get("move_seconds") is not None and data.get("bank_minutes") is not None:
            self.add_error("bank_minutes", "Choose seconds per move or minutes per player.")
        if data.get("increment_seconds") and data.get("bank_minutes") is None:
            self.add_error("increment_seconds", "Seconds added go with minutes per player.")
        return data

    def time_control(self) -> dict[str, Any] | None:
        data = self.cleaned_data
        on_timeout = data.get("on_timeout") or "random"
        if data.get("move_seconds") is not None:
            return {"move_seconds": data["move_seconds"], "on_timeout": on_timeout}
        if data.get("bank_minutes") is not None:
            return {
                "bank_seconds": data["bank_minutes"] * 60,
                "increment_seconds": data.get("increment_seconds") or 0,
                "on_timeout": on_timeout,
            }
        return None

    def clock_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ClockForm.base_fields]


class NewGameForm(ClockForm):
    """The game, the number of seats, who takes each seat, and the chosen game's options.

    There is a pair of seat fields for every seat the largest game can have; only the first
    ``players`` are used. Each registered game's options get fields of their own, named
    ``option_<slug>_<name>``; only the chosen game's are sent to the service.
    """

    def __init__(self, *args: Any, user, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.specs: list[GameSpec] = sorted(
            (m.spec for m in registered().values()), key=lambda spec: spec.name
        )
        self.max_seats = max(spec.max_players for spec in self.specs)
        slugs = [spec.slug for spec in self.specs]
        self.fields["game"] = forms.ChoiceField(
            label="Game",
            choices=[(spec.slug, spec.name) for spec in self.specs],
            initial="deep-sea-adventure" if "deep-sea-adventure" in slugs else slugs[0],
        )
        self.fields["players"] = forms.IntegerField(
            label="Players", min_value=1, max_value=self.max_seats, initial=2
        )
        who = [(PERSON, "A player"), (OPEN, "Open: anyone may join")]
        who += [(level, bot_name(level)) for level in BOTS]
        default_bot = "random" if "random" in BOTS else next(iter(BOTS))
        for i in range(self.max_seats):
            self.fields[f"seat_{i}_who"] = forms.ChoiceField(
                label=f"Player {i + 1}", choices=who, initial=PERSON if i == 0 else default_bot
            )
            self.fields[f"seat_{i}_user"] = forms.CharField(
                label=f"Player {i + 1} username",
                required=False,
                max_length=150,
                initial=user.username if i == 0 else "",
            )
        for spec in self.specs:
            for option in spec.options:
                words = OPTION_WORDS.get((spec.slug, option.name), {})
                self.fields[_option_field_name(spec, option)] = _option_field(option, words)
                if option.subset_of:
                    self.fields[_subset_field_name(spec, option)] = _subset_field(option, words)

    def clean(self):
        data = super().clean()
        players = data.get("players")
        if players is None:
            return data
        for i in range(players):
            if data.get(f"seat_{i}_who") == PERSON and not data.get(f"seat_{i}_user"):
                self.add_error(f"seat_{i}_user", "Give a username, or choose a bot.")
        return data

    # -- what the service gets -------------------------------------------------------------

    def seats(self) -> list[dict[str, str]]:
        data = self.cleaned_data
        seats = []
        for i in range(data["players"]):
            who = data[f"seat_{i}_who"]
            if who == PERSON:
                seats.append({"user": data[f"seat_{i}_user"]})
            elif who == OPEN:
                seats.append({"open": True})
            else:
                seats.append({"bot": who})
        return seats

    def options(self) -> dict[str, Any]:
        spec = self._chosen_spec()
        chosen = {}
        for option in spec.options:
            value = self.cleaned_data.get(_option_field_name(spec, option))
            if option.subset_of:
                # Ticked items win over the choice; the service checks there are enough.
                picked = self.cleaned_data.get(_subset_field_name(spec, option))
                if picked:
                    by_text = {str(item): item for item in option.subset_of}
                    value = [by_text[text] for text in picked]
            if value is not None:
                chosen[option.name] = value
        return chosen

    # -- what the template shows ------------------------------------------------------------

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(i, self[f"seat_{i}_who"], self[f"seat_{i}_user"]) for i in range(self.max_seats)]

    def option_groups(self) -> list[tuple[GameSpec, list[forms.BoundField]]]:
        groups = []
        for spec in self.specs:
            fields = []
            for option in spec.options:
                fields.append(self[_option_field_name(spec, option)])
                if option.subset_of:
                    fields.append(self[_subset_field_name(spec, option)])
            if fields:
                groups.append((spec, fields))
        return groups

    def player_ranges(self) -> dict[str, dict[str, int]]:
        """Per game, its player range, for the page's script to offer only sensible counts."""
        return {
            spec.slug: {"min": spec.min_players, "max": spec.max_players} for spec in self.specs
        }

    def _chosen_spec(self) -> GameSpec:
        slug = self.cleaned_data["game"]
        return next(spec for spec in self.specs if spec.slug == slug)


def _option_field_name(spec: GameSpec, option: OptionSpec) -> str:
    return f"option_{spec.slug}_{option.name}"


def _subset_field_name(spec: GameSpec, option: OptionSpec) -> str:
    return f"option_{spec.slug}_{option.name}_pick"


def _subset_field(option: OptionSpec, words: dict[str, Any]) -> forms.Field:
    """Checkboxes naming the items of a subset option, e.g. Ventlife's four species."""
    label = words.get("pick") or f"Or choose {option.subset_size or 'some'} yourself"
    items = words.get("items", {})
    return forms.MultipleChoiceField(
        label=label,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[
            (str(item), items.get(item) or str(item).replace("-", " ").capitalize())
            for item in option.subset_of
        ],
        help_text=f"Tick exactly {option.subset_size}; ticks override the choice above."
        if option.subset_size
        else "Ticks override the choice above.",
    )


def _option_field(option: OptionSpec, words: dict[str, Any]) -> forms.Field:
    """A form field for a game option, in its game's words where ``words`` (OPTION_WORDS)
    gives them. Not required: a missing value means the default."""
    label = words.get("label") or option.name.replace("_", " ").capitalize()
    help_text = words.get("help", option.help)
    if option.kind == "bool":
        return forms.BooleanField(
            label=label, required=False, initial=option.default, help_text=help_text
        )
    if option.kind == "int":
        return forms.IntegerField(
            label=label,
            required=False,
            initial=option.default,
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=help_text,
        )
    by_text = {str(choice): choice for choice in option.choices}
    choice_words = words.get("choices", {})
    return forms.TypedChoiceField(
        label=label,
        required=False,
        initial=str(option.default),
        choices=[(text, choice_words.get(text, text)) for text in by_text],
        coerce=by_text.__getitem__,
        empty_value=None,
        help_text=help_text,
    )
