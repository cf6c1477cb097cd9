"""The chain's hash is SHA-256 of one canonical JSON text per event. The store builds that text
from parts, the event's data encoded once for the hash and the log alike; here it is held to
the definition: the canonical form of the whole event as one JSON object, without the actor in
chain format 1 (the games logged before) and with it in format 2."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import UTC, datetime, timedelta, timezone

import pytest

from games import logchain


def by_definition(previous, seq, kind, data, seat, time, actor=None, chain=1) -> str:
    body = {"seq": seq, "kind": kind, "data": data, "seat": seat, "time": time, "prev": previous}
    if chain == 2:
        body["actor"] = actor
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randint(-(10**12), 10**12)
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind == 4:
        return "".join(rng.choice('aZ 0"\\\n\té€😀\u2028') for _ in range(rng.randrange(6)))
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "seat", "Ähre", "z", "a b", "10", "9", '"q"']
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


CASES = [
    ("", 1, "GameCreated", {"options": {}, "seed": None}, None, "2026-12-01T19:00:00.000000Z"),
    ("ab" * 32, 2, "ActionApplied", {"type": "roll", "dice": [1, 3]}, 0, "t"),
    ("x", 3, "Kind ünïcode", {"é": "ü", "list": [1.5, -0.0, 10**20]}, 5, "2026"),
]


@pytest.mark.parametrize("event", CASES)
def test_a_hash_is_the_canonical_form_of_the_whole_event(event):
    assert logchain.event_hash(*event, chain=1) == by_definition(*event)
    assert logchain.event_hash(*event, actor=7, chain=2) == by_definition(*event, 7, 2)


# A logged hash of format 1 (migration 0013 chained the logs before it; tests/golden holds
# bundles exported then): what format 1 hashes may never change.
FORMAT_1 = ("", 1, "GameCreated", {"game": "x"}, None, "2026-12-01T19:00:00.000000Z")


def test_format_1_hashes_what_it_always_has_and_leaves_the_actor_out():
    # As the code before chain formats hashed it (main at 8883d3e).
    digest = "8a2b667ad638d25b335495662a543b716efc8334a4f63a0344405ad2f2b4f459"
    assert logchain.event_hash(*FORMAT_1, chain=1) == digest
    assert logchain.event_hash(*FORMAT_1, actor=3, chain=1) == digest


def test_format_2_covers_the_actor():
    hashes = {logchain.event_hash(*FORMAT_1, actor=actor, chain=2) for actor in (None, 0, 1, 2)}
    assert len(hashes) == 4
    assert logchain.event_hash(*FORMAT_1, actor=None, chain=2) != logchain.event_hash(
        *FORMAT_1, chain=1
    )


def test_random_data_hashes_as_the_definition_says():
    rng = random.Random(7)
    for _ in range(2000):
        event = (
            rng.choice(["", "0" * 64, "é"]),
            rng.randrange(1, 10**6),
            rng.choice(["ActionApplied", "ChanceResolved", "Ünï"]),
            random_value(rng),
            rng.choice([None, 0, 3]),
            logchain.time_text(logchain.datetime.now(logchain.UTC)),
        )
        actor, chain = rng.choice([None, 1, 10**9]), rng.choice(logchain.CHAIN_VERSIONS)
        assert logchain.event_hash(*event, actor=actor, chain=chain) == by_definition(
            *event, actor, chain
        ), event


@pytest.mark.parametrize("chain", [1, 2])
def test_a_chain_of_texts_is_the_chain_of_hashes(chain):
    events = [(i + 1, "K", {"n": i}, i % 2, i or None, "t") for i in range(5)]
    previous, expected = "", []
    for seq, kind, data, seat, actor, time in events:
        previous = by_definition(previous, seq, kind, data, seat, time, actor, chain)
        expected.append(previous)
    texts = [(s, k, logchain.canonical_text(d), st, a, t) for s, k, d, st, a, t in events]
    assert logchain.chain("", texts, version=chain) == expected


@pytest.mark.parametrize(
    "moment, text",
    [
        (datetime(2026, 12, 1, 19, 0, tzinfo=UTC), "2026-12-01T19:00:00.000000Z"),
        (datetime(2026, 12, 2, 1, 2, 3, 45, tzinfo=UTC), "2026-12-02T01:02:03.000045Z"),
        # another zone is told in UTC; the hour crosses back over the day and the year
        (
            datetime(2027, 1, 1, 0, 30, 0, 999999, tzinfo=timezone(timedelta(hours=2))),
            "2026-12-31T22:30:00.999999Z",
        ),
    ],
)
def test_an_event_time_is_utc_to_the_microsecond_with_a_z(moment, text):
    """The chain hashes this text; logs written before must verify with the same one."""
    assert logchain.time_text(moment) == text
    assert text == moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_a_naive_event_time_is_refused():
    with pytest.raises(ValueError):
        logchain.time_text(datetime(2026, 12, 1, 19, 0))


@pytest.mark.parametrize(
    "seq, seat, actor",
    [(True, 0, None), (1, True, None), (1.0, 0, None), (1, "0", None), (1, 0, True), (1, 0, "7")],
)
@pytest.mark.parametrize("chain", [1, 2])
def test_a_seq_seat_or_actor_that_is_not_a_whole_number_is_refused(seq, seat, actor, chain):
    with pytest.raises(TypeError):
        logchain.event_hash("", seq, "K", {}, seat, "t", actor=actor, chain=chain)


@pytest.mark.parametrize("chain", [0, 3, "2", None])
def test_a_chain_format_that_does_not_exist_is_refused(chain):
    with pytest.raises(ValueError, match="chain format"):
        logchain.event_hash("", 1, "K", {}, None, "t", chain=chain)


def test_nan_is_refused():
    with pytest.raises(ValueError):
        logchain.event_hash("", 1, "K", {"x": float("nan")}, None, "t", chain=2)
