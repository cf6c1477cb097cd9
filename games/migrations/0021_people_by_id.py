"""Logs name people by id, never by name (games/eventschema.py: schema version 2 of every kind
that names people), so that a member can be erased and every log still verify.

The logs written before named members by username and guests by name, and held a member's
notes in the clear. They are rewritten here, the one time: the append-only triggers stand
aside for it, as they did once for the hash chain (0013). For each game:

- every event of version 1 that names people is read as version 2 by eventschema's own
  upcaster (the same function that reads such an event wherever one is still met), each name
  becoming the public id of its person (accounts.Person, one per member and per guest name,
  made here for everyone) and each note sealed under its writer's key;
- the chain is recomputed from the first event rewritten on, under the game's own chain
  format, and the game's row gets the new fingerprint;
- the fingerprint before, and the data each rewritten event held, are kept in
  EarlierFingerprint: the export bundle carries them and verify_log checks that the earlier
  fingerprint, the one players may have copied, still follows from the log (until a person it
  names is erased);
- the game's snapshots are dropped: each is sealed over the chain's hash at its version
  (0020), which changed; the next read writes them again.
"""

import base64
import secrets
from contextlib import contextmanager

from cryptography.fernet import Fernet
from django.db import migrations, models
from django.utils import timezone

from games.eventschema import PEOPLE, UPCASTERS, version_of
from games.logchain import GENESIS, canonical_text, chain, time_text
from games.store.guards import OPERATIONS, sqlite_trigger

BATCH = 2000


def _new_id(prefix, taken):
    while True:
        public_id = prefix + base64.b32encode(secrets.token_bytes(8)).decode("ascii").lower()[:10]
        if public_id not in taken:
            taken.add(public_id)
            return public_id


class _People:
    """Everyone the logs may name, made persons here, and their keys for sealing notes."""

    def __init__(self, apps, db):
        self.Person = apps.get_model("accounts", "Person")
        User = apps.get_model("auth", "User")
        Seat = apps.get_model("games", "Seat")
        self.db = db
        persons = self.Person.objects.using(db)
        self.taken = set(persons.values_list("public_id", flat=True))
        have = set(persons.filter(user__isnull=False).values_list("user_id", flat=True))
        persons.bulk_create(
            [
                self.Person(public_id=_new_id("m-", self.taken), user_id=pk)
                for pk in User.objects.using(db).values_list("pk", flat=True)
                if pk not in have
            ],
            batch_size=BATCH,
        )
        self.members = dict(
            persons.filter(user__isnull=False).values_list("user__username", "public_id")
        )
        self.by_user = dict(persons.filter(user__isnull=False).values_list("user_id", "public_id"))
        self.guests = dict(persons.filter(user__isnull=True).values_list("guest_name", "public_id"))
        for name in set(
            Seat.objects.using(db).exclude(guest="").values_list("guest", flat=True)
        ) - set(self.guests):
            self.guest(name)
        self.keys = dict(persons.exclude(key="").values_list("public_id", "key"))

    def guest(self, name):
        if name not in self.guests:
            public_id = _new_id("g-", self.taken)
            self.Person.objects.using(self.db).create(public_id=public_id, guest_name=name)
            self.guests[name] = public_id
        return self.guests[name]

    def seal(self, user_id, text):
        by = self.by_user[user_id]
        if by not in self.keys:
            self.keys[by] = Fernet.generate_key().decode("ascii")
            self.Person.objects.using(self.db).filter(public_id=by).update(key=self.keys[by])
        token = Fernet(self.keys[by].encode("ascii")).encrypt(text.encode("utf-8"))
        return {"sealed": token.decode("ascii"), "by": by}


class _Table:
    """eventschema's Resolver for one event of one game: its seats' names first."""

    def __init__(self, people, seat_members, seat_guests, actor_id):
        self.people, self.seat_members, self.seat_guests = people, seat_members, seat_guests
        self.actor_id = actor_id

    def person(self, name, *, guest):
        if not guest and name in self.seat_members:
            return self.people.members[name]
        if guest or name in self.seat_guests:
            return self.people.guest(name)
        if name in self.people.members:  # a member holding no seat: a scorekeeper, say
            return self.people.members[name]
        return self.people.guest(name)  # a name no account has: as a guest would be

    def note(self, text):
        if self.actor_id is None:
            return {"plain": text, "by": None}
        return self.people.seal(self.actor_id, text)


@contextmanager
def _triggers_aside(schema_editor):
    """The append-only triggers off for this migration's rewrite, and back on after it."""
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
    elif vendor == "sqlite":
        for op in OPERATIONS:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS games_event_append_only_{op.lower()}")
    yield
    if vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
    elif vendor == "sqlite":
        for op in OPERATIONS:
            schema_editor.execute(sqlite_trigger(op))


def _rewritten(log, people, seats, chain_version):
    """The events of one game's ``log`` (in order) from the first rewritten on, with their
    new data and hashes, and the data each rewritten one held; ([], {}) if none names anyone."""
    seat_members = {username for username, _ in seats if username}
    seat_guests = {guest for _, guest in seats if guest}
    before, first = {}, None
    for event in log:
        if event.kind in PEOPLE and version_of(event.data) == 1:
            table = _Table(people, seat_members, seat_guests, event.actor_id)
            before[str(event.seq)] = event.data
            event.data = UPCASTERS[(event.kind, 1)](event.data, table)
            first = event.seq if first is None else first
    if first is None:
        return [], {}
    previous = GENESIS if first == 1 else log[first - 2].hash  # seqs run 1..n without gaps
    rest = log[first - 1 :]
    hashes = chain(
        previous,
        [
            (e.seq, e.kind, canonical_text(e.data), e.seat, e.actor_id, time_text(e.created_at))
            for e in rest
        ],
        version=chain_version,
    )
    for event, digest in zip(rest, hashes):
        event.hash = digest
    return rest, before


def names_to_ids(apps, schema_editor):
    db = schema_editor.connection.alias
    Game = apps.get_model("games", "Game")
    Event = apps.get_model("games", "Event")
    Seat = apps.get_model("games", "Seat")
    Snapshot = apps.get_model("games", "Snapshot")
    Earlier = apps.get_model("games", "EarlierFingerprint")
    people = _People(apps, db)
    now = timezone.now()
    events = Event.objects.using(db)
    pending = []
    # Read each list whole before writing beside it (SQLite and open cursors do not mix).
    games = list(
        Game.objects.using(db)
        .filter(events__kind__in=list(PEOPLE))
        .distinct()
        .order_by("id")
        .values_list("id", "chain_version", "fingerprint")
    )
    with _triggers_aside(schema_editor):
        for game_id, chain_version, fingerprint in games:
            seats = list(
                Seat.objects.using(db)
                .filter(game_id=game_id)
                .values_list("user__username", "guest")
            )
            log = list(events.filter(game_id=game_id).order_by("seq"))
            rest, before = _rewritten(log, people, seats, chain_version)
            if not rest:
                continue
            pending += rest
            Game.objects.using(db).filter(pk=game_id).update(fingerprint=rest[-1].hash)
            Earlier.objects.using(db).create(
                game_id=game_id, fingerprint=fingerprint, replaced_at=now, events=before
            )
            Snapshot.objects.using(db).filter(game_id=game_id).delete()
            if len(pending) >= BATCH:
                events.bulk_update(pending, ["data", "hash"])
                pending = []
        if pending:
            events.bulk_update(pending, ["data", "hash"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_snapshot_seal"),
        ("accounts", "0002_person"),
    ]

    operations = [
        migrations.CreateModel(
            name="EarlierFingerprint",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=models.deletion.CASCADE,
                        primary_key=True,
                        related_name="earlier",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("fingerprint", models.CharField(max_length=64)),
                ("replaced_at", models.DateTimeField()),
                ("events", models.JSONField(null=True)),
            ],
        ),
        migrations.RunPython(names_to_ids, migrations.RunPython.noop),
    ]
