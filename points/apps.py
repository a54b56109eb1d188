from django.apps import AppConfig


class PointsConfig(AppConfig):
    """Registers the `price` management command; the engine itself never imports Django."""

    name = "points"
    verbose_name = "Points engine"
