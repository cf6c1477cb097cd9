from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues and ratings"

    def ready(self):
        from games.signals import game_finished, result_corrected

        # games announces results; the ratings here take them in (the beat's sweep of unrated
        # games, league.tasks, is the backstop for an announcement that was lost).
        game_finished.connect(_rate, dispatch_uid="league.rate.finished")
        result_corrected.connect(_rate, dispatch_uid="league.rate.corrected")


def _rate(sender, *, slug: str, game_id: int | None = None, **kwargs):
    from league.tasks import rate_finished_games

    rate_finished_games.delay(slug, game_id)
