"""`POST /api/fight/` (SPEC 3.8, issue #29): two units in, exact odds out."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.test import Client

from tests.samples import ROOT, VSGMR_SAMPLES

pytestmark = pytest.mark.django_db

URL = "/api/fight/"
HERO = {"name": "Hero", "profile": {"kind": "guy", "flavor": "hero"}}
TROOP = {"name": "Troop", "profile": {"kind": "guy", "flavor": "troop"}}


def post(client: Client, body: object, **extra):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(URL, data=text, content_type="application/json", **extra)


def test_the_answer_has_exactly_the_keys_the_issue_names(client):
    out = post(client, {"system": "vsgmr", "a": HERO, "b": TROOP}).json()

    assert set(out) == {
        "exact",  # SPEC 3.8: false when walked in double precision, within error_bound
        "error_bound",
        "a_wins",
        "b_wins",
        "draw",
        "percent",
        "rounds",
        "not_in_these_odds",
        "lines",
        "rules_version",
    }
    assert all(isinstance(line, str) for line in out["lines"])


def test_hero_against_troop_answers_in_exact_fractions(client):
    response = post(client, {"system": "vsgmr", "a": HERO, "b": TROOP, "fight": "hand-to-hand"})

    assert response.status_code == 200
    out = response.json()
    # Worked by hand: 3/5 (tests/points/test_fights.py).
    assert (out["a_wins"], out["b_wins"], out["draw"]) == ("3/5", "2/5", "0")
    assert out["percent"] == {"a_wins": "60.0", "b_wins": "40.0", "draw": "0.0"}
    assert out["rules_version"] == "vsgmr/2026.1"
    assert out["rounds"][0] == {
        "round": 1,
        "a_wins": "1/2",
        "b_wins": "1/3",
        "draw": "0",
        "going": "1/6",
    }
    assert out["not_in_these_odds"] == []
    assert any("Hero hits Troop on d6 4+ hand to hand: 2/3" in line for line in out["lines"])


def test_a_certain_win_is_written_1(client):
    shooter = {
        "name": "Gun",
        "profile": {"kind": "guy", "flavor": "troop", "distance_attack": True},
    }
    out = post(client, {"system": "vsgmr", "a": shooter, "b": TROOP, "fight": "distance"}).json()

    assert (out["a_wins"], out["b_wins"]) == ("1", "0")


def test_gem_melee_with_modifiers_and_frontage(client):
    single = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    body = {
        "system": "gem",
        "a": {"name": "Chargers", "quantity": 2, "profile": single},
        "b": {"name": "Holders", "profile": single},
        "modifiers": {"a": [], "b": []},
        "frontage": {"a": 1},
    }

    out = post(client, body).json()

    # By hand: two against one, a front of one, all needing 11: 7/9, 1/9, 1/9.
    assert (out["a_wins"], out["b_wins"], out["draw"]) == ("7/9", "1/9", "1/9")
    assert out["lines"][0] == (
        "Chargers, Basic attack: each hits 1/2 (Table 1: OFF 4 against DEF 4 needs 11)."
    )
    # By hand, from 2 v 1: both hit (1/4) costs A a model; A misses and B hits (1/4) costs
    # one and leaves 1 v 1, where A loses the other 2/3 of the time: A loses
    # (1/4 + 1/4 * 5/3) / (3/4) = 8/9 HIT; B loses its one unless it wins (1/9): 8/9.
    assert out["lines"][2] == "Expected losses: Chargers 8/9 of 2 HIT, Holders 8/9 of 1 HIT."


def test_outside_gem_losses_are_counted_in_figures_one_against_one(client):
    # VSGMR and the d10 set price a fight as one figure against one: "of 1 figure".
    duels = [
        ({"system": "vsgmr", "a": HERO, "b": TROOP}, "Hero", "Troop"),
        (
            {
                "system": "d10",
                "a": {"name": "Brawler", "profile": {"cqc": 5}},
                "b": {"name": "Rifleman", "profile": {"cqc": 5}},
                "fight": "hand-to-hand",
            },
            "Brawler",
            "Rifleman",
        ),
    ]
    for body, a, b in duels:
        lines = post(client, body).json()["lines"]
        losses = next(line for line in lines if line.startswith("Expected losses:"))
        assert re.fullmatch(rf"Expected losses: {a} \S+ of 1 figure, {b} \S+ of 1 figure\.", losses)


def test_d10_close_fight(client):
    body = {
        "system": "d10",
        "a": {"name": "Brawler", "profile": {"cqc": 10}},
        "b": {"name": "Pinned", "profile": {"cqc": 1}},
        "fight": "hand-to-hand",
        "modifiers": {"b": ["suppressed", "up-slope"]},
    }

    assert post(client, body).json()["a_wins"] == "90/91"


RIFLEMAN = {"name": "Rifleman", "profile": {"weapons": ["Carbine/AR"]}}


@pytest.mark.parametrize(
    ("first", "a_wins", "b_wins"),
    # By hand (tests/points/test_d10_fights.py): two riflemen close in; the active model
    # wins the contest 9/20, the other 39/100, each puts the other out 3/5 of a win, so
    # the one acting first wins 15/28; "either" is the mean of the two orders.
    [
        ("a", "15/28", "13/28"),
        ("b", "13/28", "15/28"),
        ("either", "1/2", "1/2"),
        (None, "1/2", "1/2"),
    ],
)
def test_d10_takes_who_acts_first_and_either_by_default(client, first, a_wins, b_wins):
    body = {"system": "d10", "a": RIFLEMAN, "b": RIFLEMAN}
    if first is not None:
        body["first"] = first

    out = post(client, body).json()

    assert (out["a_wins"], out["b_wins"]) == (a_wins, b_wins)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"system": "d10", "a": RIFLEMAN, "b": RIFLEMAN, "first": "both"}, "first"),
        ({"system": "d10", "a": RIFLEMAN, "b": RIFLEMAN, "first": ["a"]}, "first"),
        ({"system": "vsgmr", "a": HERO, "b": TROOP, "first": "a"}, "first"),
        ({"system": "warhammer", "a": HERO, "b": TROOP}, "system"),
        ({"system": "vsgmr", "a": HERO}, "b"),
        ({"system": "vsgmr", "a": HERO, "b": TROOP, "fight": "psychic"}, "fight"),
        (
            {"system": "vsgmr", "a": HERO, "b": {"name": "B", "profile": {"kind": "tank"}}},
            "b.profile.kind",
        ),
        ({"system": "vsgmr", "a": HERO, "b": TROOP, "frontage": {"a": 2}}, "frontage"),
        ({"system": "vsgmr", "a": HERO, "b": TROOP, "cover": "yes"}, "cover"),
        ({"system": "gem", "a": TROOP, "b": TROOP}, "a.profile.kind"),
        (
            {
                "system": "gem",
                "a": {
                    "name": "A",
                    "profile": {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4},
                },
                "b": {
                    "name": "B",
                    "profile": {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4},
                },
                "modifiers": {"a": ["charged", "flank", "rear"]},
            },
            "modifiers.a[2]",
        ),
        ([1, 2], ""),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)

    assert response.status_code == 400
    out = response.json()
    assert out["field"] == field
    assert out["error"].startswith(f"{field}: " if field else "")


def test_not_json_is_a_400(client):
    for text in ("{", "NaN", "\xff"):
        response = post(client, text)
        assert response.status_code == 400
        assert response.json()["field"] == "body"


def test_a_melee_too_long_to_add_up_exactly_comes_in_twelve_digits_with_its_bound(client):
    big = {"type": "block", "base": "20mm", "off": 4, "def": 4, "hit": 3, "att": 3}
    body = {
        "system": "gem",
        "a": {"name": "A", "quantity": 20, "profile": big},
        "b": {"name": "B", "quantity": 20, "profile": big},
    }

    response = post(client, body)

    assert response.status_code == 200
    out = response.json()
    assert out["exact"] is False and 0 < out["error_bound"] <= 1e-9
    # The same unit on each side: each wins as often as the other, to within the bound.
    assert abs(float(out["a_wins"]) - float(out["b_wins"])) <= 2 * out["error_bound"]
    for chance in (out["a_wins"], out["b_wins"], out["draw"]):
        assert re.fullmatch(r"0\.0*[1-9]\d{11}", chance), chance  # 12 significant digits


def test_too_large_a_melee_is_refused_naming_the_largest_answered(client):
    # 70 models of HIT 3 is 210 HIT, past the 200 a side Muster walks; 66 models (198
    # HIT) against the same 30 are answered.
    big = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "hit": 3, "att": 3}
    body = {
        "system": "gem",
        "a": {"name": "A", "quantity": 70, "profile": big},
        "b": {"name": "B", "quantity": 30, "profile": big},
    }

    response = post(client, body)

    assert response.status_code == 422
    assert "up to 200 HIT a side" in response.json()["error"]
    assert response.json()["largest"] == {"a": 66, "b": 30}
    body["a"]["quantity"] = 66
    answered = post(client, body)
    assert answered.status_code == 200 and answered.json()["exact"] is False


def test_player_text_comes_back_escaped_as_json(client):
    name = '</script><b>"Grim"</b>'
    response = post(client, {"system": "vsgmr", "a": {**HERO, "name": name}, "b": TROOP})

    assert response["Content-Type"] == "application/json"
    assert name in response.json()["lines"][0]


def test_one_address_may_ask_only_so_many_fights_a_minute(client, settings):
    settings.PRICE_API_PER_MINUTE = 2
    body = {"system": "vsgmr", "a": HERO, "b": TROOP}

    answered = [post(client, body).status_code for _ in range(2)]
    refused = post(client, body)
    elsewhere = post(client, body, REMOTE_ADDR="192.0.2.7")

    assert answered == [200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert elsewhere.status_code == 200


def test_one_address_may_post_only_so_many_bytes_of_fights_a_minute(client, settings):
    body = json.dumps({"system": "vsgmr", "a": HERO, "b": TROOP})
    settings.PRICE_API_BYTES_PER_MINUTE = 2 * len(body)

    answered = [post(client, body).status_code for _ in range(2)]
    refused = post(client, body)

    assert answered == [200, 200]
    assert refused.status_code == 429
    assert "bytes a minute" in refused.json()["error"]


def test_the_fight_command_prints_what_the_api_answers(client, tmp_path):
    hero, troop = tmp_path / "hero.json", tmp_path / "troop.json"
    hero.write_text(json.dumps(HERO), encoding="utf-8")
    troop.write_text(json.dumps(TROOP), encoding="utf-8")
    army = VSGMR_SAMPLES / "dwarves.json"

    # manage.py in a process of its own, as a player runs it; the rest of the command's
    # answers are read in this process (_fight_command): each process costs Django's start.
    run = subprocess.run(
        [sys.executable, "manage.py", "fight", str(hero), str(troop), "--system", "vsgmr"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    from_army = _fight_command(str(army), str(troop))
    bad = _fight_command(str(hero), str(army), "--fight", "distance")

    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == post(client, {"system": "vsgmr", "a": HERO, "b": TROOP}).json()
    # The Dwarves' first unit, a hero commander in heavy armour with Tough, takes the system
    # from its file. Its armour turns a troop's hit on 3+ (4+ with Tough): hit stands 1/3.
    code, out, err = from_army
    assert code == 0, err
    out = json.loads(out)
    assert "Troop, Hand to hand: each hits 1/6 (d6 4+ hand to hand)." in out["lines"]
    assert out["not_in_these_odds"] == []
    # Neither side has a distance attack: a draw.
    code, out, err = bad
    assert code == 0, err
    assert json.loads(out)["draw"] == "1"


def test_the_fight_command_names_the_field_it_cannot_read(tmp_path):
    wizard = tmp_path / "wizard.json"
    wizard.write_text(json.dumps({"name": "W", "profile": {"kind": "guy", "flavor": "wizard"}}))

    code, out, err = _fight_command(str(wizard), str(wizard), "--system", "vsgmr")

    assert code == 2
    assert out == ""
    assert err.startswith("a.profile.flavor: must be one of")


def _fight_command(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as ended:
        call_command("fight", *args, stdout=out, stderr=err)
    return ended.value.code, out.getvalue(), err.getvalue()


def test_the_fight_command_says_what_is_wrong_with_its_input(tmp_path):
    hero = tmp_path / "hero.json"
    hero.write_text(json.dumps(HERO), encoding="utf-8")
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"system": "vsgmr", "units": []}), encoding="utf-8")

    cases = {
        "no system": ([str(hero), str(hero)], "--system: say which rules"),
        "missing file": ([str(tmp_path / "gone.json"), str(hero)], "cannot read the file"),
        "army without units": ([str(empty), str(hero)], "must list at least one unit"),
        "a modifier without its side": (
            [str(hero), str(hero), "--system", "gem", "--modifier", "charged"],
            "--modifier: write SIDE:VALUE",
        ),
        "a frontage that is not a number": (
            [str(hero), str(hero), "--system", "gem", "--frontage", "a:five"],
            "--frontage: five is not a number",
        ),
    }
    for case, (args, message) in cases.items():
        code, out, err = _fight_command(*args)
        assert (code, out) == (2, ""), case
        assert message in err, (case, err)


def test_the_fight_command_says_who_acts_first_in_d10(client, tmp_path):
    path = tmp_path / "rifleman.json"
    path.write_text(json.dumps(RIFLEMAN), encoding="utf-8")

    either = _fight_command(str(path), str(path), "--system", "d10")
    first = _fight_command(str(path), str(path), "--system", "d10", "--first", "b")

    assert either[0] == first[0] == 0
    assert json.loads(either[1])["a_wins"] == "1/2"
    body = {"system": "d10", "a": RIFLEMAN, "b": RIFLEMAN, "first": "b"}
    assert json.loads(first[1]) == post(client, body).json()
    assert json.loads(first[1])["a_wins"] == "13/28"


def test_the_fight_command_takes_gem_conditions_for_each_side(client, tmp_path):
    # Two single GEM swordsmen (OFF 4 against DEF 4 hits on 11+ on Table 1): A charged.
    sword = {"name": "Sword", "profile": {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}}
    path = tmp_path / "sword.json"
    path.write_text(json.dumps(sword), encoding="utf-8")

    code, out, _ = _fight_command(
        str(path), str(path), "--system", "gem", "--modifier", "a:charged", "--frontage", "a:1"
    )

    assert code == 0
    body = {
        "system": "gem",
        "a": sword,
        "b": sword,
        "modifiers": {"a": ["charged"], "b": []},
        "frontage": {"a": 1},
    }
    assert json.loads(out) == post(client, body).json()
    # Charging helps A only: A wins more often than B.
    assert Fraction(json.loads(out)["a_wins"]) > Fraction(json.loads(out)["b_wins"])
