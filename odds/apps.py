from django.apps import AppConfig


class OddsConfig(AppConfig):
    """The calculators that offer the player's own units: GEM Table 1 odds and the fight
    odds (SPEC 3.8), and `manage.py fight`. The rules pages they sit among read no army,
    so these pages live here; the engine works the odds out (points/fights.py)."""

    name = "odds"
