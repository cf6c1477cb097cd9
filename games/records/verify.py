"""Check a finished game's export bundle: every hash, the fingerprint, and the game itself
replayed through the rules. Needs only Python and this repository's ``games/`` folder (no
Django, nothing installed):

    python3 -I -S games/verify_log.py hadal-game-17.json

It prints what it checked and exits 0, or says where the bundle was changed and exits 1.
``manage.py verify_log FILE`` runs the same check.

It reads every bundle format: version 1 (the events without their actors, every game of chain
format 1), version 2 (each event's actor, and the game's chain format: under format 2 each
hash covers the actor too, under format 1 the actors are carried but not covered) and version 3
(the names behind the ids the log names people by, and, for a game logged before logs named
people by id, the fingerprint it had then with the data each event moved to ids held: this
checker recomputes that earlier chain too, so a fingerprint copied before still checks). A
version it does not know it refuses, saying which versions it reads.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: import games.* from the repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import eventschema, logchain  # noqa: E402
from games.rules import IllegalAction, get_rules  # noqa: E402

# The event kinds that move the rules (games.models.EventKind, whose module needs Django).
MOVES = ("ActionApplied", "ChanceResolved")


class BundleError(Exception):
    """The bundle is not a bundle, or it was changed: the message says where."""


@dataclass
class Verified:
    game: str
    events: int
    fingerprint: str
    replayed: bool
    chain_version: int = 1
    # The fingerprint before the log was moved to people's ids, and whether it still checks
    # (None: it covered a name since erased, and cannot be checked any more).
    earlier: str | None = None
    earlier_checked: bool | None = None
    earlier_date: str = ""
    people: int = 0

    def summary(self) -> str:
        lines = [
            f"{self.game}: {self.events} events, every hash matches; "
            f"fingerprint {logchain.short(self.fingerprint)} ({self.fingerprint})",
            "chain format 2: each hash covers who made the event"
            if self.chain_version == 2
            else "chain format 1 (logged before actors were hashed): who made each event is "
            "not covered by the hashes",
            "replayed through the rules: every move legal, the result as recorded"
            if self.replayed
            else "a recorded result: no moves to replay",
        ]
        if self.people:
            who = "1 person" if self.people == 1 else f"{self.people} people"
            lines.append(
                f"it names {who} by id; the names beside the ids are as shown when it was "
                "exported, and are not covered by the fingerprint"
            )
        if self.earlier is not None:
            when = f"until {self.earlier_date[:10]}" if self.earlier_date else "before"
            lines.append(
                f"its fingerprint {when} was {logchain.short(self.earlier)} ({self.earlier}): "
                + (
                    "it follows from the log as it was then, names in place of ids"
                    if self.earlier_checked
                    else "it covered a name since erased, so it can no longer be checked"
                )
            )
        return "\n".join(lines)


def verify(raw: bytes) -> Verified:
    """Check a bundle's bytes; raise BundleError saying where it fails."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BundleError(f"byte {exc.start} is not UTF-8: this is not a bundle") from None
    try:
        bundle = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BundleError(
            f"not JSON at line {exc.lineno}, column {exc.colno} ({exc.msg}): this is not a bundle"
        ) from None
    events, rules_info, game_info, chain_version = _shape(bundle)
    last = _check_chain(events, chain_version)
    if bundle["fingerprint"] != last:
        raise BundleError(
            "the fingerprint does not match the hash of the last event: it was changed"
        )
    if events[0]["kind"] != "GameCreated":
        raise BundleError("event 1 is not the game being set up")
    setup = _setup(events)
    _check_game(setup, events, rules_info, game_info)
    replayed = _replay(setup, events, rules_info)
    if "people" in bundle:
        _check_people(events, bundle["people"])
    earlier = bundle.get("earlier")
    checked = _check_earlier(events, earlier, chain_version) if earlier else None
    _check_bytes(raw, bundle)
    return Verified(
        game=f"a game of {rules_info['slug']}",
        events=len(events),
        fingerprint=last,
        replayed=replayed,
        chain_version=chain_version,
        earlier=earlier["fingerprint"] if earlier else None,
        earlier_checked=checked,
        earlier_date=earlier.get("replaced_at", "") if earlier else "",
        people=len(bundle.get("people") or {}),
    )


# The fields of a bundle, and of each of its events, in each bundle format.
_FIELDS = {
    1: {"format", "format_version", "game", "rules", "events", "fingerprint"},
    2: {"format", "format_version", "chain_version", "game", "rules", "events", "fingerprint"},
}
_FIELDS[3] = _FIELDS[2] | {"people", "earlier"}
_EVENT_FIELDS = {
    1: {"seq", "kind", "data", "seat", "time", "hash"},
    2: {"seq", "kind", "data", "seat", "actor", "time", "hash"},
}
_EVENT_FIELDS[3] = _EVENT_FIELDS[2]


def _shape(bundle: Any) -> tuple[list[dict], dict, dict, int]:
    if not isinstance(bundle, dict) or bundle.get("format") != logchain.BUNDLE_FORMAT:
        raise BundleError(
            f'not a bundle: expected a JSON object with "format": "{logchain.BUNDLE_FORMAT}"'
        )
    version = bundle.get("format_version")
    if type(version) is not int or version not in logchain.BUNDLE_VERSIONS:
        known = " and ".join(map(str, logchain.BUNDLE_VERSIONS))
        raise BundleError(
            f"bundle format version {version!r}: this checker reads versions {known}; a "
            "newer bundle needs a newer copy of games/verify_log.py"
        )
    expected = _FIELDS[version]
    if set(bundle) != expected:
        raise BundleError(
            f"a bundle of format version {version} has exactly the fields {sorted(expected)}"
        )
    chain_version = bundle.get("chain_version", 1)  # a bundle of version 1: format 1
    if type(chain_version) is not int or chain_version not in logchain.CHAIN_VERSIONS:
        known = " and ".join(map(str, logchain.CHAIN_VERSIONS))
        raise BundleError(f"chain format {chain_version!r}: this checker knows formats {known}")
    events, rules_info, game_info = bundle["events"], bundle["rules"], bundle["game"]
    if not isinstance(events, list) or not events:
        raise BundleError('"events" must be a non-empty list')
    if not isinstance(rules_info, dict) or set(rules_info) != {"slug", "module", "version"}:
        raise BundleError('"rules" must give exactly the slug, module and version')
    if not isinstance(game_info, dict) or set(game_info) != {"mode", "status"}:
        raise BundleError('"game" must give exactly the mode and status')
    if not isinstance(bundle["fingerprint"], str):
        raise BundleError('"fingerprint" must be a string of 64 hex digits')
    if version >= 3:
        _shape_people(bundle["people"], bundle["earlier"])
    keys = _EVENT_FIELDS[version]
    for i, event in enumerate(events, start=1):
        if not isinstance(event, dict) or set(event) != keys:
            raise BundleError(f"event {i}: expected exactly the fields {sorted(keys)}")
        if event["seq"] != i:
            raise BundleError(
                f"event {i}: numbered {event['seq']!r}, so an event is missing, "
                "added or out of order"
            )
    return events, rules_info, game_info, chain_version


def _shape_people(people: Any, earlier: Any) -> None:
    if not isinstance(people, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in people.items()
    ):
        raise BundleError('"people" must map each id to a name, or to null once erased')
    if earlier is None:
        return
    if (
        not isinstance(earlier, dict)
        or set(earlier) != {"fingerprint", "replaced_at", "events"}
        or not isinstance(earlier["fingerprint"], str)
        or not isinstance(earlier["replaced_at"], str)
        or not (earlier["events"] is None or isinstance(earlier["events"], dict))
    ):
        raise BundleError(
            '"earlier" must be null or give exactly the fingerprint, replaced_at and events'
        )


def _check_people(events: list[dict], people: dict[str, Any]) -> None:
    """The bundle names exactly the people its log names by id. The names themselves are not
    covered by any hash, on purpose: a person erased loses their name, never their log."""
    named: set[str] = set()
    for event in events:
        named.update(eventschema.people_in(event["kind"], event["data"]))
        for key in eventschema.TEXTS.get(event["kind"], ()):
            note = event["data"].get(key) if isinstance(event["data"], dict) else None
            if isinstance(note, dict) and isinstance(note.get("by"), str):
                named.add(note["by"])
    if set(people) != named:
        missing, extra = sorted(named - set(people)), sorted(set(people) - named)
        raise BundleError(
            '"people" must name exactly the ids in the log: '
            f"missing {', '.join(missing) or 'none'}; not in the log {', '.join(extra) or 'none'}"
        )


def _check_earlier(events: list[dict], earlier: dict, chain_version: int) -> bool | None:
    """Whether the fingerprint from before the log was moved to ids follows from the log as
    it was: the data each rewritten event held in place of what it holds now. None if that
    data is gone (it named someone since erased); BundleError if it does not follow."""
    held = earlier["events"]
    if held is None:
        return None
    unknown = sorted(set(held) - {str(e["seq"]) for e in events})
    if unknown:
        raise BundleError(f'"earlier" names events the log does not have: {", ".join(unknown)}')
    as_it_was = [dict(e, data=held.get(str(e["seq"]), e["data"])) for e in events]
    try:
        previous = logchain.GENESIS
        for event in as_it_was:
            previous = logchain.event_hash(
                previous,
                event["seq"],
                event["kind"],
                event["data"],
                event["seat"],
                event["time"],
                actor=event.get("actor"),
                chain=chain_version,
            )
    except (TypeError, ValueError) as exc:
        raise BundleError(f'"earlier" cannot be hashed ({exc})') from None
    if previous != earlier["fingerprint"]:
        raise BundleError(
            "the earlier fingerprint does not follow from the log as it was: the log, or what "
            '"earlier" says it held, was changed'
        )
    return True


def _check_chain(events: list[dict], chain_version: int) -> str:
    previous = logchain.GENESIS
    for event in events:
        try:
            digest = logchain.event_hash(
                previous,
                event["seq"],
                event["kind"],
                event["data"],
                event["seat"],
                event["time"],
                actor=event.get("actor"),
                chain=chain_version,
            )
        except (TypeError, ValueError) as exc:
            raise BundleError(f"event {event['seq']}: cannot be hashed ({exc})") from None
        if digest != event["hash"]:
            raise BundleError(
                f"event {event['seq']} ({event['kind']}): its hash does not match what it "
                "holds, so the event or its hash was changed"
            )
        previous = digest
    return previous


def _setup(events: list[dict]) -> dict:
    """How the game was set up: event 1, and for a table that became a table log, what its
    LogStarted event says (the mode, the rules' version and options)."""
    setup = dict(events[0]["data"]) if isinstance(events[0]["data"], dict) else {}
    started = [e for e in events if e["kind"] == "LogStarted" and isinstance(e["data"], dict)]
    if started:
        data = started[0]["data"]
        setup.update(mode="log", rules_version=data.get("rules_version"))
        if "options" in data:
            setup["options"] = data["options"]
    return setup


def _check_game(created: dict, events: list[dict], rules_info: dict, game_info: dict) -> None:
    """Everything the bundle says beside its events must follow from the events."""
    if created.get("game") != rules_info["slug"]:
        raise BundleError("the bundle's rules are not those of the game set up in event 1")
    try:
        module = get_rules(rules_info["slug"]).__name__
    except KeyError:
        module = None  # a game recorded only, with no rule module
    if rules_info["module"] != module:
        raise BundleError(
            f"the rules of {rules_info['slug']} are {module!r} here, not {rules_info['module']!r}"
        )
    if created.get("rules_version", 0) != rules_info["version"]:
        raise BundleError("the bundle's rules version is not the one event 1 was set up under")
    mode = created.get("mode", "play")
    if game_info["mode"] != mode:
        raise BundleError(f'the bundle says mode "{game_info["mode"]}", event 1 says "{mode}"')
    kinds = {e["kind"] for e in events}
    status = game_info["status"]
    if status == "finished" and "GameFinished" not in kinds:
        raise BundleError("the bundle says finished, but no event finishes the game")
    if status == "void" and not kinds & {"GameVoided", "SeatDeclined"}:
        raise BundleError("the bundle says void, but no event calls the game off")
    if status not in ("finished", "void"):
        raise BundleError(f"status {status!r}: only a game that is over is exported")


def _replay(created: dict, events: list[dict], rules_info: dict) -> bool:
    if created.get("mode", "play") == "record":
        return False
    try:
        rules = get_rules(rules_info["slug"], rules_info["version"])
    except ValueError as exc:
        raise BundleError(
            f"the game was played under rules version {rules_info['version']!r}, which this "
            f"copy does not have ({exc}): check it with a newer copy of the checker"
        ) from None
    try:
        state = rules.new_game(num_players=created["num_players"], options=created["options"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"event 1: the game cannot be set up ({exc})") from None
    # A table log's scorekeeper may take entries back (EntryUndone): replay skips those.
    try:
        undone = logchain.undone((e["seq"], e["kind"], e["data"]) for e in events)
    except (KeyError, TypeError):
        raise BundleError("an entry taken back does not say which one it takes back") from None
    for event in events:
        if event["kind"] not in MOVES or event["seq"] in undone:
            continue
        action = event["data"].get("action") if isinstance(event["data"], dict) else None
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise BundleError(f"event {event['seq']}: the rules refuse this move ({exc})") from None
    finished = [e for e in events if e["kind"] == "GameFinished"]
    if finished and finished[-1]["data"].get("reason") == "rules":
        if not state.is_terminal():
            raise BundleError("the events say the rules ended the game, but replayed it goes on")
        scores = [r["score"] for r in state.result()]
        recorded = [r.get("score") for r in finished[-1]["data"]["result"]]
        if scores != recorded:
            raise BundleError(f"replayed, the scores are {scores}, not {recorded}")
    return True


def _check_bytes(raw: bytes, bundle: dict) -> None:
    """Whatever the checks above cannot see (spacing, key order) must be as exported."""
    expected = logchain.dump_bundle(bundle)
    if raw == expected:
        return
    at = next(
        (i for i, (a, b) in enumerate(zip(raw, expected)) if a != b), min(len(raw), len(expected))
    )
    line = raw.count(b"\n", 0, at) + 1
    column = at - (raw.rfind(b"\n", 0, at) + 1) + 1
    raise BundleError(f"byte {at} (line {line}, column {column}) is not as exported")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python3 -I -S games/verify_log.py BUNDLE.json", file=sys.stderr)
        return 2
    try:
        raw = Path(args[0]).read_bytes()
    except OSError as exc:
        print(f"cannot read {args[0]}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = verify(raw)
    except BundleError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    print(result.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
