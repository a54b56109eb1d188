from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing, printing and exports: the share link and fork, the roster and cards, text
    exports, matchups, the kept offline pages. Builds on armies (models, services, state)
    and reads rolls from the table; it has no models of its own."""

    name = "sharing"
