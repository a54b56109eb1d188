"""Black-box tests of `python manage.py price FILE` (SPEC section 4).

Each run of manage.py starts a Python process (about half a second on an idle core,
seconds under a parallel run), so the twelve refused files are read by the same command
line inside the test's process: what manage.py runs, from its arguments to its exit
status and streams. Real processes check the rest, a refusal among them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from django.core.management import execute_from_command_line

from tests.samples import GEM_WORKED_EXAMPLES, ROOT, VSGMR_SAMPLES

DWARVES = VSGMR_SAMPLES / "dwarves.json"
GEM_EXAMPLES = GEM_WORKED_EXAMPLES


def price(arg: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python manage.py price ARG` in a process of its own."""
    return subprocess.run(
        [sys.executable, "manage.py", "price", arg],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _vsgmr(*units: dict, **top: object) -> dict:
    army = {"format": "muster-army/1", "name": "Bad army", "system": "vsgmr", "units": list(units)}
    return army | top


def _gem(**profile: object) -> dict:
    swordsman = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    unit = {"name": "Swordsman", "quantity": 1, "profile": swordsman | profile}
    return {"format": "muster-army/1", "name": "Bad army", "system": "gem", "units": [unit]}


THANE = {
    "name": "Thane",
    "quantity": 1,
    "profile": {"kind": "guy", "flavor": "hero", "commander": True},
}


def _thane(**change: object) -> dict:
    return THANE | change


def _thane_profile(**change: object) -> dict:
    return THANE | {"profile": THANE["profile"] | change}


# case: (file text, field path the one-line message must name, other text it must contain)
BAD_INPUT: dict[str, tuple[str, str, str]] = {
    "not-json": ('{"format": "muster-army/1", "units": [', "", "JSON"),
    "wrong-format": (json.dumps(_vsgmr(THANE, format="muster-army/2")), "format", ""),
    "unknown-top-level-key": (json.dumps(_vsgmr(THANE, colour="red")), "colour", ""),
    "unknown-profile-key": (
        json.dumps(_vsgmr(_thane_profile(colour="red"))),
        "units[0].profile.colour",
        "",
    ),
    "quantity-is-a-string": (json.dumps(_vsgmr(_thane(quantity="3"))), "units[0].quantity", ""),
    "quantity-zero": (json.dumps(_vsgmr(_thane(quantity=0))), "units[0].quantity", ""),
    "gem-off-11": (
        json.dumps(_gem(off=11)),
        "units[0].profile.off",
        "units[0].profile.off: must be between 1 and 10",
    ),
    "malformed-dice": (json.dumps(_gem(mov="2d")), "units[0].profile.mov", ""),
    "dice-over-limits": (json.dumps(_gem(mov="101d6")), "units[0].profile.mov", ""),
    "unknown-system": (json.dumps(_vsgmr(THANE, system="warhammer")), "system", ""),
    "unknown-trait": (
        json.dumps(_vsgmr(_thane_profile(traits=["tough", "flying-carpet"]))),
        "units[0].profile.traits",
        "",
    ),
    "cavalry-armor-none": (
        json.dumps(
            _vsgmr(
                THANE,
                {"name": "Horse", "quantity": 1, "profile": {"kind": "cavalry", "armor": "none"}},
            )
        ),
        "units[1].profile.armor",
        "",
    ),
}


def price_here(arg: str, capsys: pytest.CaptureFixture[str]) -> subprocess.CompletedProcess[str]:
    """The same command line as `price`, run by Django's manage.py entry point in this
    process: its exit status and what it wrote on each stream."""
    argv = ["manage.py", "price", arg]
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(argv)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(argv, exited.value.code, out, err)


def _assert_one_line_refusal(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    return lines[0]


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_unreadable_army_exits_2_with_one_line_naming_the_field(tmp_path, capsys, case: str):
    text, path, also = BAD_INPUT[case]
    army = tmp_path / f"{case}.json"
    army.write_text(text, encoding="utf-8")

    line = _assert_one_line_refusal(price_here(str(army), capsys))

    if path:
        # The message starts with the field path (after any "Error:"-style label).
        assert re.search(rf"(^|\s){re.escape(path)}\b", line), line
    assert also in line


@pytest.mark.slow
def test_missing_file_exits_2_with_one_line_naming_it(tmp_path):
    line = _assert_one_line_refusal(price(str(tmp_path / "no-such-army.json")))

    assert "no-such-army.json" in line


@pytest.mark.slow
def test_legal_army_prints_one_json_object_and_exits_0():
    run = price(str(DWARVES))

    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert {"system", "name", "total", "points_limit", "units", "errors", "warnings"} <= set(out)
    assert (out["system"], out["name"], out["points_limit"]) == ("vsgmr", "Dwarves", 28)
    assert out["total"] == 28
    assert type(out["total"]) is int  # whole costs print as 28, not 28.0
    got = [(u["name"], u["quantity"], u["each"], u["cost"]) for u in out["units"]]
    assert got == [("Thane", 1, 4, 4), ("Runepriest", 1, 6, 6), ("Guards", 3, 6, 18)]
    for unit in out["units"]:
        assert {"name", "quantity", "each", "cost", "breakdown"} <= set(unit)
        assert unit["breakdown"], unit
        assert all({"label", "value"} <= set(line) for line in unit["breakdown"])
    assert out["errors"] == []
    assert out["warnings"] == []


@pytest.mark.slow
def test_army_breaking_a_rule_from_stdin_is_priced_and_exits_1():
    army = json.loads(DWARVES.read_text(encoding="utf-8"))
    army["points_limit"] = 20
    mooks = {"name": "Militia", "quantity": 3, "profile": {"kind": "guy", "flavor": "mook"}}
    army["units"].append(mooks)

    run = price("-", stdin=json.dumps(army))

    assert run.returncode == 1, run.stderr
    out = json.loads(run.stdout)
    assert (out["total"], out["points_limit"]) == (29.5, 20)
    assert (out["units"][-1]["each"], out["units"][-1]["cost"]) == (0.5, 1.5)
    assert [(e["code"], e["unit"]) for e in out["errors"]] == [("over-limit", None)]
    assert out["errors"][0]["message"]
    assert out["warnings"] == []


def test_gem_worked_examples_price_as_the_spec_prints(capsys):
    # The figures, not the process: three real processes above exit 0, 1 and 2.
    run = price_here(str(GEM_EXAMPLES), capsys)

    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["system"] == "gem"
    assert out["points_limit"] is None
    got = {u["name"]: u["each"] for u in out["units"]}
    assert got == {
        "Swordsman": 6.5,
        "Archer": 25.3,
        "Knight": 54.3,
        "Tank": 1348.1,
        "Block of 18": 5.3,
    }
    assert [u["cost"] for u in out["units"]] == [6.5, 25.3, 54.3, 1348.1, 5.3]
    assert out["total"] == 1439.5
    assert out["errors"] == []
    # Five units and no leader: GEM's optional leader rule warns, it does not block.
    assert [w["code"] for w in out["warnings"]] == ["no-leader"]
