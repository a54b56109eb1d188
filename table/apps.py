from django.apps import AppConfig


class TableConfig(AppConfig):
    """The table: playing a game from the army (taps, undo, earlier games) and the
    G.O.M.S. acquisition roll, with their models (Game, AcquisitionRecord). Builds on
    armies (its models, services and state)."""

    name = "table"
