from django.apps import AppConfig
from django.urls import register_converter

from armies.converters import ShareToken


class ArmiesConfig(AppConfig):
    name = "armies"

    def ready(self) -> None:
        # Share links (`<token:token>`) are routed by sharing/ and table/ as well: the
        # converter is registered once, before any URLconf is read.
        register_converter(ShareToken, "token")
