"""What a person chooses for themselves."""

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """A person's settings; a person without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    # An e-mail when it becomes their turn in a game without a short clock (games.live.notices).
    turn_emails = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"settings of {self.user}"
