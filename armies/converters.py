"""URL path converters."""

from __future__ import annotations


class ShareToken:
    """A share link's token as Army.share makes one (secrets.token_urlsafe): anything
    else is no link at all, a 404 before any query (PostgreSQL refuses a NUL in text)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
