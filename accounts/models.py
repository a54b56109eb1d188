"""What the accounts app keeps besides Django's own users and sessions."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Strikes(models.Model):
    """How many times something counted against one key recently: failed log-ins for a
    user name or an address, pricing requests from an address (accounts/throttle.py).

    In the database, so every app server counts together and a restart forgets nothing.
    A row lives until `expires`; an expired row is deleted when a new count starts.
    """

    key = models.CharField(max_length=120, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name_plural = "strikes"

    def __str__(self) -> str:
        return f"{self.key}: {self.count} until {self.expires:%Y-%m-%d %H:%M:%S}"


class Preferences(models.Model):
    """What a player chose for themselves, kept with their account so that it follows them
    to any device they log in on (accounts/services.py writes it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    # One of settings.LANGUAGES' codes, "" until the player picks one or signs up. Not a
    # choices field: a new language is a catalog and a line in settings, not a migration.
    language = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or 'no language chosen'}"
