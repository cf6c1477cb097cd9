from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from django.core.signals import request_started
        from django.db.models.signals import post_migrate

        from accounts.bots import register_levels
        from games.bots import BOTS
        from games.play import sweeper

        register_levels(BOTS)  # accounts knows bot users, games knows what bots there are
        from games import store, tasks
        from games.live import notices, push
        from games.records import notices as record_notices

        store.on_write(push.after_write)  # the store knows no listener: the streams subscribe
        notices.connect()
        store.on_write(record_notices.after_write)  # a record's confirmations and disputes
        tasks.connect()  # play's requests for work, answered by queueing a task
        post_migrate.connect(_guard_the_log, sender=self)
        # A member away from the board: their correspondence clocks wait (games.play.away).
        from accounts.signals import away_ended, away_started
        from games.play import away

        away_started.connect(away.on_away_started, dispatch_uid="games.away.started")
        away_ended.connect(away.on_away_ended, dispatch_uid="games.away.ended")
        # Clocks fire with no beat too (eager mode): the web process sweeps in a thread.
        request_started.connect(sweeper.start, dispatch_uid="games.play.sweeper")


def _guard_the_log(using, **kwargs):
    from django.db import connections

    from games.store.guards import ensure_sqlite_triggers

    ensure_sqlite_triggers(connections[using])
