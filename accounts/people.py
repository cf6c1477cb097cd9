"""People as the logs name them: a public id per member (bots included) and per guest name, the
name behind each id, and the notes each person seals under a key of their own.

A log never holds a name (games/eventschema.py): what it holds is an id from here. A name is
looked up when a page or an answer is made, so that erasing a person (accounts.erasure)
changes what is shown and leaves every log, and every hash over it, as it was.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterable
from typing import Any

from allauth.account.models import EmailAddress
from cryptography.fernet import Fernet, InvalidToken
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import ApiToken, Person, Profile, Vacation

MEMBER, GUEST = "m-", "g-"
ID_DIGITS = 10  # of base32: 50 bits, enough that a new id is always new
FORMER_MEMBER = "a former member"
FORMER_GUEST = "a former guest"
# An erased member's account keeps its row (seats and the logs' actors point at it) under a
# username that is unique and says what it is: "former-member-" and their id's digits.
ERASED_PREFIX = "former-member-"


def new_id(prefix: str) -> str:
    digits = base64.b32encode(secrets.token_bytes(8)).decode("ascii").lower()[:ID_DIGITS]
    return prefix + digits


def _create(**fields) -> Person:
    """A new person with a fresh id (a clash, one in 2^50, is simply drawn again)."""
    prefix = MEMBER if fields.get("user_id") is not None else GUEST
    while True:
        try:
            with transaction.atomic():
                return Person.objects.create(public_id=new_id(prefix), **fields)
        except IntegrityError:
            existing = _existing(**fields)
            if existing is not None:  # someone made the same person first
                return existing


def _existing(**fields) -> Person | None:
    if fields.get("user_id") is not None:
        return Person.objects.filter(user_id=fields["user_id"]).first()
    return Person.objects.filter(user__isnull=True, guest_name=fields["guest_name"]).first()


def member(user) -> Person:
    """The person a member (or a bot) is, made the first time a log names them."""
    return _existing(user_id=user.pk) or _create(user_id=user.pk)


def member_ids(user_ids: Iterable[int]) -> dict[int, str]:
    """Each member's public id by their user's pk: one query, and one more per member not
    yet named by any log."""
    wanted = set(user_ids)
    ids = dict(Person.objects.filter(user_id__in=wanted).values_list("user_id", "public_id"))
    for pk in wanted - set(ids):
        ids[pk] = _create(user_id=pk).public_id
    return ids


def member_id(user) -> str:
    return member_ids([user.pk])[user.pk]


def guest_ids(names: Iterable[str]) -> dict[str, str]:
    """Each guest name's public id: one person per name, as the standings count guests."""
    names = set(names)
    ids = dict(
        Person.objects.filter(user__isnull=True, guest_name__in=names).values_list(
            "guest_name", "public_id"
        )
    )
    for name in names - set(ids):
        ids[name] = _create(guest_name=name).public_id
    return ids


_SHOWN = object()


def names(public_ids: Iterable[str], *, erased: Any = _SHOWN) -> dict[str, str]:
    """The name shown for each id: a member's username, a guest's name, or, once erased,
    ``erased`` ("a former member" / "a former guest" by default); an id no one has is left
    out."""
    rows = Person.objects.filter(public_id__in=set(public_ids)).values_list(
        "public_id", "user__username", "guest_name", "erased_at"
    )
    shown = {}
    for public_id, username, guest_name, erased_at in rows:
        member = public_id.startswith(MEMBER)
        if erased_at is not None:
            former = FORMER_MEMBER if member else FORMER_GUEST
            shown[public_id] = former if erased is _SHOWN else erased
        else:
            shown[public_id] = username if member else guest_name
    return shown


# -- notes: what a person wrote, sealed under their own key ---------------------------------------


def seal(user, text: str) -> dict | str:
    """``text`` written by ``user``, as a log keeps it: ``{"sealed", "by"}``, or "" for none."""
    if not text:
        return ""
    person = member(user)
    if not person.key:
        key = Fernet.generate_key().decode("ascii")
        Person.objects.filter(pk=person.pk, key="").update(key=key)
        person.refresh_from_db(fields=["key"])
    token = Fernet(person.key.encode("ascii")).encrypt(text.encode("utf-8")).decode("ascii")
    return {"sealed": token, "by": person.public_id}


class Opener:
    """Opens the notes of many people with one query for their keys."""

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}

    def want(self, public_ids: Iterable[str]) -> None:
        missing = set(public_ids) - set(self._keys)
        if missing:
            self._keys.update(
                Person.objects.filter(public_id__in=missing).values_list("public_id", "key")
            )

    def __call__(self, token: str, public_id: str) -> str | None:
        """The note's text, or None if its writer's key is gone (erased)."""
        self.want([public_id])
        key = self._keys.get(public_id)
        if not key:
            return None
        try:
            return Fernet(key.encode("ascii")).decrypt(token.encode("ascii")).decode("utf-8")
        except InvalidToken:
            return None


# -- erasure ------------------------------------------------------------------------------------


def shown_username(username: str) -> str:
    """A username as a page shows it: an erased member's as "a former member"."""
    return FORMER_MEMBER if username.startswith(ERASED_PREFIX) else username


def erase_account(user) -> Person:
    """Everything that says who ``user`` was, gone: their name (the account keeps its row, as
    seats and logs point at it, under "former-member-<id>"), e-mail addresses, password,
    settings, API tokens and days away, and the key of their notes, which can then no longer be read.
    Their games, ratings and places in standings remain, as a former member's; no log
    changes."""
    person = member(user)
    user.username = ERASED_PREFIX + person.public_id.removeprefix(MEMBER)
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    Profile.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    ApiToken.objects.filter(user=user).delete()
    Vacation.objects.filter(user=user).delete()
    Person.objects.filter(pk=person.pk).update(key="", erased_at=timezone.now())
    person.refresh_from_db()
    return person


def erase_guest(name: str) -> Person | None:
    """A guest's name (and their key, if they had one) gone from the person the logs name."""
    person = Person.objects.filter(user__isnull=True, guest_name=name).first()
    if person is None:
        return None
    Person.objects.filter(pk=person.pk).update(guest_name="", key="", erased_at=timezone.now())
    person.refresh_from_db()
    return person
