"""The one exception the engine raises for input it cannot read as an army."""

from __future__ import annotations


class ArmyFileError(ValueError):
    """Bad input, with the field path a player can find it by (``units[0].profile.off``)."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)
