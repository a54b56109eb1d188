"""What a player keeps on their account besides Django's own user: their language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from accounts.models import Preferences


def known_language(code: str) -> bool:
    """Whether `code` is one of the languages Muster speaks (settings.LANGUAGES)."""
    return code in dict(settings.LANGUAGES)


def choose_language(user: AbstractBaseUser, code: str) -> None:
    """Keep `code` as `user`'s language, used on their next log-in from any device."""
    if not known_language(code):
        raise ValueError(f"not a language Muster speaks: {code!r}")
    Preferences.objects.update_or_create(user=user, defaults={"language": code})


def language_of(user: AbstractBaseUser) -> str:
    """The language `user` chose, or "" when they never did (or it is no longer spoken)."""
    found = Preferences.objects.filter(user=user).values_list("language", flat=True).first()
    return found if found and known_language(found) else ""
