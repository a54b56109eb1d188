"""The release: a digest of the code and templates that draw Muster's pages.

Drawn HTML kept in Django's cache is kept under it (settings: the cache's KEY_PREFIX), so
a deploy that changes how anything is drawn starts from an empty cache by itself: no key
carries a suffix to bump by hand when a template changes, and two app servers of the
same release share what they draw. Reading the ~200 files takes about 15 ms, once per
process start. No Django here: the settings module imports it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

# What draws pages: the apps' Python and every template. Static files are not here:
# their names carry their own hashes (whitenoise's manifest storage).
DRAWN_BY = (
    "accounts",
    "armies",
    "config",
    "odds",
    "points",
    "rules",
    "sharing",
    "table",
    "templates",
)
SUFFIXES = (".py", ".html")


def release(root: Path) -> str:
    """A short digest of every file under `root` that draws pages, names included."""
    digest = hashlib.sha256()
    for top in DRAWN_BY:
        for path in sorted((root / top).rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
