"""Template source that would show on a page as text instead of doing its job."""

from __future__ import annotations

from tests.samples import ROOT


def test_no_template_comment_spans_lines():
    # Django ends {# … #} at the line's end: one spread over lines is printed on the page.
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted(ROOT.glob("**/templates/**/*.html"))
        if ".venv" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert found == []
