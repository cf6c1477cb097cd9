from django.apps import AppConfig


class InboxConfig(AppConfig):
    """Notices for members and the ways they reach them. Uses accounts; games and league use
    it; it uses neither of them."""

    name = "inbox"
    verbose_name = "Inbox"

    def ready(self):
        from inbox import delivery, tasks

        delivery.connect()
        tasks.connect()
