from django.apps import AppConfig


class InboxConfig(AppConfig):
    """Notices for members and the ways they reach them. Uses accounts; games and league use
    it; it uses neither of them."""

    name = "inbox"
    verbose_name = "Inbox"

    def ready(self):
        from django.core import checks

        from inbox import delivery, push, tasks

        delivery.connect()
        tasks.connect()
        checks.register(push.check_settings)
