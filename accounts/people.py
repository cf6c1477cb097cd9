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

from cryptography.fernet import Fernet, InvalidToken
from django.db import IntegrityError, transaction

from accounts.models import Person

MEMBER, GUEST = "m-", "g-"
ID_DIGITS = 10  # of base32: 50 bits, enough that a new id is always new
FORMER_MEMBER = "a former member"
FORMER_GUEST = "a former guest"


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


def names(public_ids: Iterable[str]) -> dict[str, str]:
    """The name shown for each id: a member's username, a guest's name, or "a former member"
    / "a former guest" once erased; an id no one has is left out."""
    rows = Person.objects.filter(public_id__in=set(public_ids)).values_list(
        "public_id", "user__username", "guest_name", "erased_at"
    )
    shown = {}
    for public_id, username, guest_name, erased_at in rows:
        if public_id.startswith(MEMBER):
            shown[public_id] = FORMER_MEMBER if erased_at else username
        else:
            shown[public_id] = FORMER_GUEST if erased_at else guest_name
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
