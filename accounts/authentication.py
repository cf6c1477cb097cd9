"""Token authentication that asks the database one prepared question per request.

DRF's TokenAuthentication builds an ORM query with a join for every request, and building it
costs several times what the database takes to answer; measured, it was a third of a move.
This asks the same question in plain SQL and builds the user from the row, so a revoked token
or a deactivated member is refused at once, exactly as before.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.functional import cached_property
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    @cached_property
    def _query(self) -> tuple[str, list[str]]:
        user = get_user_model()
        columns = [f.column for f in user._meta.concrete_fields]
        select = ", ".join(f'u."{c}"' for c in columns)
        sql = (
            f"SELECT {select} FROM {user._meta.db_table} u"
            ' JOIN authtoken_token t ON t.user_id = u."id" WHERE t."key" = %s'
        )
        return sql, [f.attname for f in user._meta.concrete_fields]

    def authenticate_credentials(self, key):
        sql, names = self._query
        with connection.cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        user = get_user_model().from_db(connection.alias, names, row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return user, key
