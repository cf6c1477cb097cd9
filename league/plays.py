"""Plays in and out of a league: reading a CSV or a BG Stats export into plays, and writing a
league's plays as either. No database here: league.services.plays imports and exports.

CSV: one row per player per play, the columns ``play`` (an id grouping the rows of one play),
``date`` (ISO), ``game`` (the name the site shows, or its slug: case, spaces and punctuation
aside), ``player`` (a member's username or a guest's name),
``guest`` (yes/no), ``score`` (may be empty) and ``rank``; other columns are ignored. The
columns of BoardGameGeek's and BG Stats' play logs are read too (:data:`CSV_NAMES`): without a
guest column the players are matched to members by name, without ranks the winners and then
the higher scores rank first.

BG Stats: the app's JSON export, tables that refer to each other by id: ``games`` (``id``,
``name``, ``highestWins``), ``players`` (``id``, ``name``), ``locations`` and ``plays``, each
with ``playDate`` ("YYYY-MM-DD HH:MM:SS"), ``gameRefId`` and ``playerScores`` (``playerRefId``,
``score`` as text, ``winner``, ``seatOrder``, ``rank``, 0 when not set). Its games are mapped to
Hadal's by name, its players to members by name (league.services.plays), everyone else a guest.

A CSV's lines may end in LF, CRLF or CR alone, with or without a byte-order mark. A file of the
wrong shape (missing columns, not a BG Stats export, JSON nested too deeply or holding a number
that is not finite) raises InvalidInput naming what is wrong; a bad value refuses its row
(:class:`Refusal`), naming the row and the field.
"""

from __future__ import annotations

import csv
import datetime as dt
import difflib
import io
import json
import math
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from core import inputs
from core.errors import InvalidInput
from games.catalog import GameType
from league.figures import number_text

CSV_COLUMNS = ("play", "date", "game", "player", "guest", "score", "rank")
# The columns a CSV may name each field by, as _plain_column writes them: Hadal's own first,
# then those of BoardGameGeek's play log (its play id, date, the game's name as objectname,
# each player's name or BGG username, score, win and start position, the play's quantity and
# whether it was incomplete) and BG Stats' (playDate, winner, seatOrder). A player's cell is
# the first of player, name and username that is not empty.
CSV_NAMES = {
    "play": ("play", "playid"),
    "date": ("date", "playdate"),
    "game": ("game", "gamename", "objectname", "itemname", "item"),
    "player": ("player", "playername", "name", "username"),
    "guest": ("guest",),
    "score": ("score", "points"),
    "rank": ("rank", "place", "position"),
    "win": ("win", "winner", "won"),
    "seat": ("seat", "seatorder", "startposition"),
    "quantity": ("quantity",),
    "incomplete": ("incomplete",),
}
BGSTATS_TABLES = ("games", "players", "locations", "plays")
FORMATS = ("csv", "bgstats")
YES, NO = {"yes", "y", "true", "1"}, {"no", "n", "false", "0", ""}
MAX_BYTES = 20 * 1024 * 1024
BGSTATS_DATE = "%Y-%m-%d %H:%M:%S"
# Names for the same export, so that a play keeps its uuid from one export to the next.
_PLAY_IDS = uuid.UUID("6f1d3c52-55b8-4d1e-9d7c-2c0e8f4b7a10")


@dataclass
class Seat:
    """One player's line of a play as the file has it."""

    where: str  # "row 3", "play 2, player 1"
    player: str
    guest: bool
    score: int | float | None
    rank: int | None  # None: BG Stats gave none; ranks come from winners and scores


@dataclass
class Play:
    key: str  # the play's id in the file
    where: str  # "play 7 (rows 2-4)"
    date: dt.datetime
    game: str  # a Hadal slug
    seats: list[Seat] = field(default_factory=list)

    def results(self) -> list[dict[str, Any]]:
        return [
            {"player": s.player, "guest": s.guest, "score": s.score, "rank": s.rank}
            for s in self.seats
        ]


@dataclass(frozen=True)
class Refusal:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Parsed:
    plays: list[Play]
    refused: list[Refusal]
    # BG Stats: the file's player names, mapped later to members or guests
    names: list[str] = field(default_factory=list)
    # A CSV without a guest column: its players are matched to members by name, the rest guests
    by_name: bool = False


def decode(raw: bytes, name: str = "the file") -> str:
    if len(raw) > MAX_BYTES:
        raise InvalidInput(f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(f"{name} is not UTF-8 text") from None


# -- reading --------------------------------------------------------------------------------------


def read_csv(text: str, games: dict[str, GameType]) -> Parsed:
    """Plays from the CSV, grouped by ``play`` in the order first seen (or, without a play
    column, by the rows next to each other with the same date and game). Its columns are
    Hadal's or those of BoardGameGeek's and BG Stats' play logs (:data:`CSV_NAMES`). Lines may
    end in LF, CRLF or CR alone (classic Mac OS and old Excel exports)."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("<"):
        raise InvalidInput(
            "this is XML, not CSV: BoardGameGeek's plays XML is not read here. Save the plays"
            " as CSV, a row per player, with the columns playid, date, objectname, name, score"
            " and win (or Hadal's own), and import that"
        )
    # newline="": csv finds the line ends itself, as its documentation asks, so that each of
    # them ends a row and a quoted one is part of its field.
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [_plain_column(h) for h in next(reader, [])]
    columns = {
        name: [header.index(c) for c in plain if c in header] for name, plain in CSV_NAMES.items()
    }
    missing = [c for c in ("date", "game", "player") if not columns[c]]
    if not (columns["rank"] or columns["win"] or columns["score"]):
        missing.append("rank")
    if missing:
        raise InvalidInput(
            f"the CSV lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
            f" (it needs {', '.join(CSV_COLUMNS)}; or date, game, player and a rank, win or"
            " score, as BoardGameGeek and BG Stats name them)"
        )
    by_name = not columns["guest"]  # no guest column: players are matched by name later
    plays: dict[str, Play] = {}
    wins: dict[str, list[bool]] = {}
    orders: dict[str, list[int]] = {}
    refused: list[Refusal] = []
    bad: set[str] = set()
    lines: dict[str, list[int]] = {}
    previous: tuple[str, str, str] | None = None  # without play ids: (key, date, game)
    for number, cells in enumerate(reader, start=2):  # row 1 is the header
        if not any(c.strip() for c in cells):
            continue  # a blank line, as spreadsheets leave at the end

        def cell(name: str, cells: list[str] = cells) -> str:
            """The row's first non-empty cell among the columns read as ``name``."""
            for index in columns[name]:
                if index < len(cells) and cells[index].strip():
                    return cells[index]
            return ""

        where = f"row {number}"
        if columns["play"]:
            key = cell("play").strip()
        else:
            date_text, game_text = cell("date").strip(), cell("game").strip()
            if previous is not None and previous[1:] == (date_text, game_text):
                key = previous[0]
            else:
                key = str(number)
            previous = (key, date_text, game_text)
        try:
            if not key:
                raise InvalidInput("play: give the play's id")
            _one_complete_play(cell("quantity"), cell("incomplete"))
            date = inputs.past_moment(cell("date"), "date")
            game = _slug(cell("game"), games)
            rank_text = cell("rank").strip()
            seat = Seat(
                where=where,
                player=inputs.text(cell("player"), "player", 150),
                guest=True if by_name else _yes_no(cell("guest"), "guest"),
                score=_score(cell("score"), "score"),
                rank=inputs.whole_number(rank_text, "rank", 1, 100) if rank_text else None,
            )
            won = _yes_no(cell("win"), "win")
            order_text = cell("seat").strip()
            order = inputs.whole_number(order_text, "seat", 1, 100) if order_text else 0
        except InvalidInput as exc:
            refused.append(Refusal(where, str(exc)))
            bad.add(key)
            continue
        lines.setdefault(key, []).append(number)
        play = plays.get(key)
        if play is None:
            plays[key] = Play(key=key, where="", date=date, game=game, seats=[seat])
            wins[key], orders[key] = [won], [order]
            continue
        first = f"row {lines[key][0]}"
        if date != play.date:
            refused.append(Refusal(where, f"date: not the date of play {key} ({first})"))
            bad.add(key)
        elif game != play.game:
            refused.append(Refusal(where, f"game: not the game of play {key} ({first})"))
            bad.add(key)
        else:
            play.seats.append(seat)
            wins[key].append(won)
            orders[key].append(order)
    for key, play in plays.items():
        numbers = lines[key]
        rows = f"row {numbers[0]}" if len(numbers) == 1 else f"rows {numbers[0]}-{numbers[-1]}"
        play.where = f"play {key} ({rows})" if columns["play"] else f"the play of {rows}"
    for key in sorted(bad & set(plays), key=lambda key: lines[key][0]):
        refused.append(Refusal(plays[key].where, "refused with its rows above"))
    for key, play in plays.items():
        if key not in bad:
            try:
                _rank_and_seat(play, wins[key], orders[key])
            except InvalidInput as exc:
                refused.append(Refusal(play.where, str(exc)))
                bad.add(key)
    return Parsed([p for k, p in plays.items() if k not in bad], refused, by_name=by_name)


def _plain_column(name: str | None) -> str:
    """A column's name as :data:`CSV_NAMES` has it: lower case, without spaces, underscores
    or hyphens ("Play Date", "play_date" and "playDate" are all playdate)."""
    return re.sub(r"[\s_\-]+", "", (name or "").casefold())


def _one_complete_play(quantity: str, incomplete: str) -> None:
    """BoardGameGeek logs several plays as one (its quantity) and unfinished ones: neither has
    a result of its own to record."""
    if quantity.strip() not in ("", "1"):
        raise InvalidInput(
            f"quantity: {quantity.strip()} plays logged as one; record each play with its own"
            " result (its own play id)"
        )
    if _yes_no(incomplete, "incomplete"):
        raise InvalidInput("incomplete: an unfinished play has no result to record")


def _rank_and_seat(play: Play, wins: list[bool], orders: list[int]) -> None:
    """Ranks from the winners and scores when the file gives none (highest score first, as in
    every Hadal game); the seats in the file's seat order when it gives one for everyone."""
    given = [s.rank is not None for s in play.seats]
    if not all(given):
        if any(given):
            raise InvalidInput("rank: give every player's rank, or none")
        _rank_from_winners_and_scores(play.seats, wins, highest=True)
    if len(set(orders)) == len(orders) and all(o > 0 for o in orders):
        play.seats = [s for _, s in sorted(zip(orders, play.seats), key=lambda pair: pair[0])]


def read_bgstats(text: str, games: dict[str, GameType]) -> Parsed:
    """Plays from a BG Stats export; each play's players by their BG Stats names (guests for
    now: league.services.plays maps the names to members)."""
    data = inputs.json_document(text, "the file")
    if not isinstance(data, dict):
        raise InvalidInput("not a BG Stats export: it should be an object of tables")
    missing = [t for t in BGSTATS_TABLES if not isinstance(data.get(t), list)]
    if missing:
        raise InvalidInput(
            f"not a BG Stats export: it has no {', '.join(missing)} table"
            f"{'s' if len(missing) > 1 else ''} (it needs {', '.join(BGSTATS_TABLES)})"
        )
    titles, highest = {}, {}
    for i, game in enumerate(data["games"]):
        ref = _row_id(game, f"games[{i}]")
        titles[ref] = _name(game, f"games[{i}]")
        highest[ref] = game.get("highestWins", True) is not False
    names = {}
    for i, player in enumerate(data["players"]):
        names[_row_id(player, f"players[{i}]")] = _name(player, f"players[{i}]")
    plays, refused = [], []
    for i, raw in enumerate(data["plays"], start=1):
        where = f"play {i}"
        try:
            plays.append(_bgstats_play(raw, i, titles, highest, names, games))
        except InvalidInput as exc:
            refused.append(Refusal(where, str(exc)))
    return Parsed(plays, refused, names=sorted(set(names.values()) - {""}))


def _row_id(row: Any, at: str) -> int | str:
    """A BG Stats table row's ``id``, which the plays refer to: a number (or text)."""
    ref = _ref(row.get("id")) if isinstance(row, dict) else None
    if ref is None:
        raise InvalidInput(f"not a BG Stats export: {at} has no id")
    return ref


def _ref(value: Any) -> int | str | None:
    """An id as BG Stats writes one, or None for anything else (a list, an object)."""
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    return None


def _name(row: dict, at: str) -> str:
    name = row.get("name")
    if name is None:
        return ""
    if not isinstance(name, str):
        raise InvalidInput(f"not a BG Stats export: {at}: name must be text")
    return inputs.text(name, f"{at}: name", 150, blank=True)


def _bgstats_play(raw, index: int, titles, highest, names, games) -> Play:
    where = f"play {index}"
    if not isinstance(raw, dict):
        raise InvalidInput("not an object")
    if raw.get("ignored") is True:
        raise InvalidInput("ignored: the play is marked ignored in BG Stats")
    date = inputs.past_moment(raw.get("playDate") or "", "playDate")
    game_ref = _ref(raw.get("gameRefId"))
    if game_ref not in titles:
        raise InvalidInput(f"gameRefId: no game {raw.get('gameRefId')!r} in the games table")
    title = titles[game_ref]
    slug = _game_by_name(title, games)
    if slug is None:
        raise InvalidInput(f"gameRefId: {title!r} is not a game Hadal knows")
    scores = raw.get("playerScores")
    if not isinstance(scores, list) or not scores:
        raise InvalidInput("playerScores: the play lists no players")
    seats, winners, orders = [], [], []
    for j, line in enumerate(scores, start=1):
        at = f"player {j}"
        ref = _ref(line.get("playerRefId")) if isinstance(line, dict) else None
        if ref not in names:
            raise InvalidInput(f"{at}: playerRefId: no player {ref!r} in the players table")
        name = names[ref]
        if not name:
            raise InvalidInput(f"{at}: the player has no name")
        rank = line.get("rank") or 0
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= 100:
            raise InvalidInput(f"{at}: rank must be a whole number from 0 (none) to 100")
        seats.append(
            Seat(
                f"{where}, {at}",
                name,
                True,
                _score(line.get("score"), f"{at}: score"),
                rank or None,
            )
        )
        winners.append(line.get("winner") is True)
        order = line.get("seatOrder")
        orders.append(order if isinstance(order, int) and not isinstance(order, bool) else 0)
    if any(s.rank is None for s in seats):
        _rank_from_winners_and_scores(seats, winners, highest[game_ref])
    if len(set(orders)) == len(orders) and all(o > 0 for o in orders):
        seats = [s for _, s in sorted(zip(orders, seats), key=lambda pair: pair[0])]
    uuid = raw.get("uuid")
    if uuid is not None and not isinstance(uuid, str):
        raise InvalidInput("uuid must be text")
    key = inputs.text(uuid or str(index), "uuid", 100)
    return Play(key=key, where=f"{where} ({key})", date=date, game=slug, seats=seats)


def _rank_from_winners_and_scores(seats: list[Seat], winners: list[bool], highest: bool) -> None:
    """BG Stats ranks are optional: a winner ranks above everyone else, then the better score;
    tied players share a rank (1, 1, 3)."""
    scored = all(s.score is not None for s in seats)
    if not any(winners) and not scored:
        raise InvalidInput("playerScores: no rank, no winner and no scores: who won?")

    def key(i: int) -> tuple:
        score = seats[i].score if scored else 0
        return (not winners[i], -(score or 0) if highest else (score or 0))

    keys = [key(i) for i in range(len(seats))]
    for i, seat in enumerate(seats):
        seat.rank = 1 + sum(1 for other in keys if other < keys[i])


def _slug(value: str, games: dict[str, GameType]) -> str:
    """A game as the file names it: its slug or the name the site shows (case, spaces and
    punctuation aside). An unknown one names, in the site's words, the games it could be."""
    slug = _game_by_name(value, games)
    if slug is not None:
        return slug
    given = value.strip()
    names = {_plain(kind.name): kind.name for kind in games.values()}
    names.update({_plain(_short(kind.name)): kind.name for kind in games.values()})
    close = difflib.get_close_matches(_plain(given), list(names), n=3, cutoff=0.75)
    if close:
        could = " or ".join(dict.fromkeys(names[c] for c in close))
        raise InvalidInput(f"game: unknown game {given!r} (did you mean {could}?)")
    every = ", ".join(sorted(kind.name for kind in games.values()))
    raise InvalidInput(f"game: unknown game {given!r} (the games are {every})")


def _short(name: str) -> str:
    """A game's name without what is in brackets: "Oceans (with The Deep promo pack 2)"."""
    return re.sub(r"\(.*?\)", "", name)


def _plain(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", name.casefold())


def _game_by_name(title: str, games: dict[str, GameType]) -> str | None:
    """A Hadal slug for a game's name: its slug, its name, or its name without what is in
    brackets ("Oceans" is Oceans (with The Deep promo pack 2)), case and punctuation aside."""
    wanted = _plain(title)
    for kind in games.values():
        if wanted and wanted in (_plain(kind.slug), _plain(kind.name), _plain(_short(kind.name))):
            return kind.slug
    return None


def _yes_no(value: Any, name: str) -> bool:
    text = (value or "").strip().casefold()
    if text in YES:
        return True
    if text in NO:
        return False
    raise InvalidInput(f"{name} must be yes or no, not {value!r}")


def _score(value: Any, name: str) -> int | float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise InvalidInput(f"{name} must be a number or empty, not {value!r}") from None
        if not math.isfinite(number):
            raise InvalidInput(f"{name} must be a finite number")
        value = int(number) if number.is_integer() else number
    return inputs.score(value, name)


# -- writing --------------------------------------------------------------------------------------


def write_csv(plays: list[Play]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        for seat in play.seats:
            writer.writerow(
                [
                    play.key,
                    play.date.isoformat(),
                    play.game,
                    seat.player,
                    "yes" if seat.guest else "no",
                    number_text(seat.score),
                    seat.rank,
                ]
            )
    return out.getvalue()


def write_bgstats(plays: list[Play], games: dict[str, GameType], location: str) -> str:
    """A BG Stats-shaped export: games by name, players by name (a member by username),
    one location (the league), every play with its scores, winners and ranks."""
    game_ids = {slug: i for i, slug in enumerate(sorted({p.game for p in plays}), start=1)}
    player_ids: dict[str, int] = {}
    for play in plays:
        for seat in play.seats:
            player_ids.setdefault(seat.player, len(player_ids) + 1)
    export = {
        "about": "Exported from Hadal: one location (the league), its games and plays",
        "games": [
            {
                "id": i,
                "uuid": _uuid("game", slug),
                "name": games[slug].name if slug in games else slug,
                "bggId": 0,
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
                "usesTeams": False,
            }
            for slug, i in game_ids.items()
        ],
        "players": [
            {"id": i, "uuid": _uuid("player", name), "name": name, "isAnonymous": False}
            for name, i in player_ids.items()
        ],
        "locations": [{"id": 1, "uuid": _uuid("location", location), "name": location}],
        "plays": [
            {
                "uuid": _uuid("play", play.key),
                "playDate": play.date.astimezone(dt.UTC).strftime(BGSTATS_DATE),
                "gameRefId": game_ids[play.game],
                "locationRefId": 1,
                "ignored": False,
                "manualWinner": False,
                "usesTeams": False,
                "playerScores": [
                    {
                        "playerRefId": player_ids[seat.player],
                        "score": "" if seat.score is None else str(seat.score),
                        "winner": seat.rank == 1,
                        "seatOrder": index,
                        "rank": seat.rank,
                        "startPlayer": False,
                        "newPlayer": False,
                    }
                    for index, seat in enumerate(play.seats, start=1)
                ],
            }
            for play in plays
        ],
        "userInfo": {},
    }
    return json.dumps(export, indent=1)


def _uuid(kind: str, name: str) -> str:
    return str(uuid.uuid5(_PLAY_IDS, f"{kind}:{name}")).upper()
