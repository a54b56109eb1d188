"""Fingerprints of the seeds' 7-word runs, for the own-words check of the catalog.

The seeds live in ../shared/seeds, beside the repository, and a clone elsewhere has
none, so their runs are kept in tests/data/seed_7grams.txt as 48-bit hashes (no
sentence of theirs is copied). When a seed changes, write the file again:

    .venv/bin/python -m tests.rules.seed_fingerprints ../shared/seeds > tests/data/seed_7grams.txt
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

FINGERPRINTS = Path(__file__).resolve().parents[1] / "data" / "seed_7grams.txt"
RUN = 7


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def fingerprints(text: str) -> set[str]:
    """The fingerprint of every run of RUN words in `text`."""
    found = words(text)
    runs = {" ".join(found[i : i + RUN]) for i in range(len(found) - RUN + 1)}
    return {hashlib.sha256(run.encode()).hexdigest()[:12] for run in runs}


def stored() -> set[str]:
    return set(FINGERPRINTS.read_text(encoding="ascii").split())


def main(seeds: Path) -> None:
    found = set().union(*(fingerprints(p.read_text(encoding="utf-8")) for p in seeds.iterdir()))
    sys.stdout.write("".join(f"{f}\n" for f in sorted(found)))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
