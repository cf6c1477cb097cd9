from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from accounts.bots import register_levels
        from games.bots import BOTS

        register_levels(BOTS)  # accounts knows bot users, games knows what bots there are
