from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """People and bots, signing up and in, and the errors every service raises. The apps
    above it (games, league) use it; it uses neither."""

    name = "accounts"
    verbose_name = "Accounts"
