"""Grant the app's PostgreSQL role what the app needs and no more; run after every migrate.

The app connects as a role that does not own the tables, so it cannot disable or drop the
append-only triggers; and it may only read and insert events, so PostgreSQL refuses its UPDATE,
DELETE and TRUNCATE of them before any trigger runs. The migration history it may read
(createsuperuser checks it) but not write; the project's other tables it may read and write.
Every run revokes and grants afresh: it is idempotent, and tables a new migration added get
their grants. The primary keys are identity columns, which need no sequence grants.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from psycopg import sql

from games.models import Event

EVENTS = "SELECT, INSERT"
PRIVILEGES = {Event._meta.db_table: EVENTS, MigrationRecorder.Migration._meta.db_table: "SELECT"}
OTHERS = "SELECT, INSERT, UPDATE, DELETE"


class Command(BaseCommand):
    help = (
        "Grant ROLE read and insert on events, read on the migration history, read and "
        "write on the other tables."
    )

    def add_arguments(self, parser):
        parser.add_argument("role", help="an existing role that owns no table and is no superuser")

    def handle(self, *args, role: str, **options):
        if connection.vendor != "postgresql":
            raise CommandError("roles are PostgreSQL's; on SQLite the triggers guard the events")
        tables = [
            MigrationRecorder.Migration._meta.db_table,
            *connection.introspection.django_table_names(only_existing=True, include_views=False),
        ]
        with transaction.atomic(), connection.cursor() as cursor:
            refuse_a_privileged_role(cursor, role)
            for statement in grants(role, tables):
                cursor.execute(statement)
        special = "; ".join(f"{privileges} on {table}" for table, privileges in PRIVILEGES.items())
        self.stdout.write(
            f"{role}: {special}; {OTHERS} on {len(tables) - len(PRIVILEGES)} other tables"
        )


def refuse_a_privileged_role(cursor, role: str) -> None:
    """Grants mean nothing to a superuser or the owner: either may lift the triggers."""
    cursor.execute(
        "SELECT rolsuper OR pg_has_role(rolname, relowner, 'MEMBER') "
        "FROM pg_roles, pg_class WHERE rolname = %s AND pg_class.oid = %s::regclass",
        [role, Event._meta.db_table],
    )
    row = cursor.fetchone()
    if row is None:
        raise CommandError(f"there is no role {role}; create it first")
    if row[0]:
        raise CommandError(
            f"{role} is a superuser or owns the tables; the app needs a role that does neither"
        )


def grants(role: str, tables: list[str]) -> list[str]:
    who = sql.Identifier(role).as_string()
    statements = []
    for table in tables:
        what = sql.Identifier(table).as_string()
        privileges = PRIVILEGES.get(table, OTHERS)
        statements += [
            f"REVOKE ALL ON TABLE {what} FROM {who}",
            f"GRANT {privileges} ON TABLE {what} TO {who}",
        ]
    return statements
