"""The DRF peer the API benches measure a move against: the same token authentication and JSON
parser as the API, one INSERT into a table with a unique (stream, version) key, a 201. The least
any event-sourced move endpoint must do."""

from __future__ import annotations

import itertools
import json
import secrets

from django.db import connection
from rest_framework.response import Response
from rest_framework.views import APIView

CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS bench_event (id {key} PRIMARY KEY, stream integer NOT NULL,"
    " version integer NOT NULL, payload text, UNIQUE (stream, version))"
)
_versions = itertools.count(1)  # one stream; next() is atomic under the GIL
# A stream of each process's own: versions from the counter start at 1 in every process, and a
# load bench serves the peer from several processes, one server after another.
_stream = secrets.randbelow(2**31)


def create_table() -> None:
    key = "serial" if connection.vendor == "postgresql" else "integer"
    with connection.cursor() as cursor:
        cursor.execute(CREATE_TABLE.format(key=key))


class Peer(APIView):
    scopes = {"POST": "play"}  # checked as a move's scope is (accounts.scopes)

    def post(self, request):
        stream, version = _stream, next(_versions)
        with connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_event (stream, version, payload) VALUES (%s, %s, %s)",
                [stream, version, json.dumps(request.data)],
            )
        return Response({"version": version}, status=201)
