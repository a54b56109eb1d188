from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing, printing and exports: the share link and fork, the roster and cards, text
    exports, matchups, the fight and Table 1 calculators, the kept offline pages. Builds on
    armies (models, services, state); models stay there."""

    name = "sharing"
