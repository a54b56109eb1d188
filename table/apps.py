from django.apps import AppConfig


class TableConfig(AppConfig):
    """The table: playing a game from the army (taps, undo, earlier games) and the
    G.O.M.S. acquisition roll. Builds on armies (models, services, state); models stay there."""

    name = "table"
