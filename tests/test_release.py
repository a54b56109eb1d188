"""The release a deploy runs (config/release.py): what Django's cache keeps drawn HTML
under, and what marks units' stored drawings. It must move when anything that draws a
page changes, and only then."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings

from config.release import release
from tests.samples import ROOT


def a_copy(tmp_path: Path) -> Path:
    """A tree with one template and one app module, as the project lays them out."""
    (tmp_path / "templates" / "armies").mkdir(parents=True)
    (tmp_path / "templates" / "armies" / "row.html").write_text("<li>{{ unit.name }}</li>\n")
    (tmp_path / "armies").mkdir()
    (tmp_path / "armies" / "drawing.py").write_text("ROW = 'armies/row.html'\n")
    return tmp_path


def test_a_changed_template_or_module_is_a_new_release(tmp_path):
    root = a_copy(tmp_path)
    first = release(root)
    assert release(root) == first  # the same files, the same release

    (root / "templates" / "armies" / "row.html").write_text("<li>{{ unit.name }}!</li>\n")
    second = release(root)
    assert second != first
    (root / "armies" / "drawing.py").write_text("ROW = 'armies/other.html'\n")
    assert release(root) not in (first, second)


def test_a_renamed_template_is_a_new_release(tmp_path):
    root = a_copy(tmp_path)
    before = release(root)
    shutil.move(
        root / "templates" / "armies" / "row.html", root / "templates" / "armies" / "r.html"
    )
    assert release(root) != before


def test_files_that_draw_nothing_leave_the_release_alone(tmp_path):
    root = a_copy(tmp_path)
    before = release(root)
    (root / "README.md").write_text("notes\n")
    (root / "armies" / "__pycache__").mkdir()
    (root / "armies" / "__pycache__" / "drawing.cpython-312.pyc").write_bytes(b"\0")
    assert release(root) == before


def test_the_site_runs_the_release_of_its_own_files():
    assert release(ROOT) == settings.RELEASE
    assert len(settings.RELEASE) == 12
