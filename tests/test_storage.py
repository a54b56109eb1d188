"""Production static files: each page links the hashed copy, whose URL is remembered."""

from __future__ import annotations

import json

import pytest

from config.storage import StaticStorage


@pytest.fixture
def storage(tmp_path, settings):
    settings.STATIC_URL = "/static/"
    manifest = {"version": "1.1", "hash": "x", "paths": {"css/site.css": "css/site.0a1b2c.css"}}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    return StaticStorage(location=tmp_path, base_url="/static/")


def test_a_file_is_linked_by_its_hashed_name_every_time(storage):
    assert storage.url("css/site.css") == "/static/css/site.0a1b2c.css"
    assert storage.url("css/site.css") == "/static/css/site.0a1b2c.css"


def test_a_file_missing_from_the_manifest_is_refused_each_time_not_remembered(storage):
    for _ in range(2):
        with pytest.raises(ValueError, match="Missing staticfiles manifest entry"):
            storage.url("css/missing.css")
