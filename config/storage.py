"""Static files in production: whitenoise's hashed, compressed copies, with each file's
URL remembered. A page names about eight static files, and working out each URL from
the manifest costs ~25 µs: small, but paid by every page, the smallest too."""

from __future__ import annotations

from functools import lru_cache

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def url(self, name: str | None, force: bool = False) -> str:
        if force or name is None:
            return super().url(name, force)
        return self._remembered_url(name)

    @lru_cache(maxsize=1024)  # noqa: B019 - one storage per process, kept for its life
    def _remembered_url(self, name: str) -> str:
        # A file missing from the manifest raises, and is asked again next time.
        return super().url(name)
