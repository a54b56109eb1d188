"""/rules/gem/table-1/ and /rules/d10/chances/: the odds calculators.

Expected chances are counted by hand from the seed tables in the comments, not read back
from the engine.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies import services
from armies.models import Unit
from tests.factories import ArmyFactory, UserFactory
from tests.helpers import rename_units

pytestmark = pytest.mark.django_db

TABLE_1 = "/rules/gem/table-1/"
D10 = "/rules/d10/chances/"

KNIGHT = {
    "type": "cavalry",
    "base": "40mm",
    "off": 6,
    "att": 2,
    "def": 7,
    "hit": 2,
    "melee": [{"name": "Horse", "off": 3}],
}
ARCHER = {
    "type": "skirmisher",
    "base": "25mm",
    "off": 3,
    "def": 4,
    "missile": [{"name": "Bow", "off": 4, "range": 24}],
}
TANK = {
    "type": "vehicle",
    "base": "huge",
    "def": 9,
    "hit": 6,
    "max_speed": 12,
    "missile": [
        {"name": "Cannon", "off": 9, "range": 48, "radius": 2, "heavy": True},
        {"name": "MG", "off": 5, "att": 3, "range": 24},
    ],
}


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status
    html = response.content.decode()
    assert "Content-Security-Policy" in response.headers
    assert "style=" not in html  # the CSP forbids inline styles...
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None  # ...and inline scripts
    return html


def text(fragment: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def odds_rows(html: str) -> dict[str, list[str]]:
    """Each attack's row of the result table: name -> [OFF, ATT, modifier, needs, chance...]."""
    rows = {}
    for row in re.findall(r'<tr data-testid="odds-row">(.*?)</tr>', html, re.S):
        name = text(re.search(r"<th[^>]*>(.*?)(?:<span|</th>)", row, re.S)[1])
        rows[name] = [text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    return rows


def errors(html: str) -> dict[str, str]:
    """The message beside each field, by field name."""
    found = re.findall(
        r'<div id="fb-([\w-]+)" class="invalid-feedback[^"]*"[^>]*>(.*?)</div>', html
    )
    return {name: text(message) for name, message in found if text(message)}


def value_of(html: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return found[1] if found else None


# ---------------------------------------------------------------- the matrix


def test_table_1_page_shows_the_whole_matrix_with_its_marks(client, django_assert_num_queries):
    with django_assert_num_queries(0):  # the table comes from the engine, not the database
        html = page(client, TABLE_1)

    rows = {
        int(off): re.findall(r'<span class="fw-semibold">(\d+[*!]?)</span>', body)
        for off, body in re.findall(r'<tr id="matrix-off-(\d+)">(.*?)</tr>', html, re.S)
    }
    assert len(rows) == 10 and all(len(cells) == 10 for cells in rows.values())
    # The seed's table, row OFF 5: 3 5 7 9 11 13 14 15 15 16.
    assert rows[5] == ["3", "5", "7", "9", "11", "13", "14", "15", "15", "16"]
    # Marked cells: OFF 1 vs DEF 9 and 10 hit only on a natural 20; OFF 9 and 10 vs DEF 1
    # miss only on a natural 1.
    assert rows[1][8:] == ["20*", "20*"]
    assert rows[9][0] == "2!" and rows[10][0] == "2!"
    # OFF 5 vs DEF 5 needs 11: 11..20, 10 of 20 = 50%.
    row_5 = re.search(r'<tr id="matrix-off-5">(.*?)</tr>', html, re.S)[1]
    cells = [text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row_5)]
    assert cells[4] == "11 50%"
    assert 'data-testid="odds"' not in html  # nothing asked, nothing worked out


def test_gem_rules_page_links_to_the_calculator(client):
    html = page(client, "/rules/gem/")
    assert f'href="{TABLE_1}" data-testid="table-1-link"' in html


# ---------------------------------------------------------------- typed OFF and DEF


def test_typed_off_and_def_give_the_score_chance_and_expected_hits(client):
    html = page(client, f"{TABLE_1}?off=5&att=2&def=5&modifiers=target-moved")
    rows = odds_rows(html)

    # OFF 5 vs DEF 5 needs 11: 10 of 20. Two dice: 2 × 1/2 = 1 hit a turn.
    assert rows["In melee"] == ["5", "2", "–", "11+", "10 in 20 (50%)", "1", "1"]
    # Shot at a target that moved (−2): 13..20, 8 of 20; 2 × 8/20 = 0.8 hits.
    assert rows["As a missile"] == ["5", "2", "−2", "11+", "8 in 20 (40%)", "0.8", "0.8"]


def test_natural_20_and_natural_1_survive_any_modifier(client):
    # OFF 1 vs DEF 10 is 20*: even at +2 (extremely large target) only the natural 20 hits.
    html = page(client, f"{TABLE_1}?off=1&def=10&modifiers=extremely-large-target")
    assert odds_rows(html)["As a missile"][4] == "1 in 20 (5%)"
    # OFF 10 vs DEF 1 is 2!: behind hard cover (−4) still only the natural 1 misses.
    html = page(client, f"{TABLE_1}?off=10&def=1&modifiers=hard-cover")
    assert odds_rows(html)["As a missile"][4] == "19 in 20 (95%)"
    # OFF 6 vs DEF 1 needs 3 (unmarked); +2 would make a 1 enough but the 1 always misses.
    html = page(client, f"{TABLE_1}?off=6&def=1&modifiers=extremely-large-target")
    assert odds_rows(html)["As a missile"][4] == "19 in 20 (95%)"


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("off=0&def=5", "off", "OFF runs from 1 to 10."),
        ("off=5&def=99", "def", "DEF runs from 1 to 10."),
        ("off=five&def=5", "off", "Type a whole number."),
        ("off=5&def=5&att=0", "att", "ATT runs from 1 to 100."),
        ("off=5&def=5&modifiers=soft-cover&modifiers=hard-cover", "modifiers", "cover"),
        ("off=5&def=5&modifiers=large-target&modifiers=small-target", "modifiers", "size"),
        ("off=5&def=5&modifiers=sniper", "modifiers", "not one of the available"),
        ("off=5&def=5&attacker=abc", "attacker", "Pick one of your own GEM units."),
    ],
)
def test_bad_input_gets_a_message_beside_its_field(client, query, field, message):
    html = page(client, f"{TABLE_1}?{query}")

    assert message in errors(html)[field]
    assert 'data-testid="odds"' not in html


def test_typed_values_are_kept_after_an_error(client):
    html = page(client, f"{TABLE_1}?off=0&att=3&def=99")

    assert value_of(html, "off") == "0"
    assert value_of(html, "att") == "3"
    assert value_of(html, "def") == "99"
    assert set(errors(html)) == {"off", "def"}


def test_missing_values_ask_for_them_instead_of_erroring(client):
    html = page(client, f"{TABLE_1}?off=5")

    assert errors(html) == {}
    assert "Pick a target or type its DEF" in html
    assert 'data-testid="chart"' in html  # OFF alone is enough for the chart


# ---------------------------------------------------------------- the chart


def test_chart_draws_the_chance_for_each_def_with_a_table_beside_it(client):
    html = page(client, f"{TABLE_1}?off=5&def=4")
    svg = re.search(r"<svg.*?</svg>", html, re.S)[0]

    assert 'role="img"' in svg and "<title" in svg
    bars = re.findall(r'<rect class="(chart-bar[^"]*)"[^>]*height="(\d+)"', svg)
    # Row OFF 5 as faces of 20: 18 16 14 12 10 8 7 6 6 5; the plot is 140 high, 7 a face.
    assert [int(h) for _, h in bars] == [7 * n for n in (18, 16, 14, 12, 10, 8, 7, 6, 6, 5)]
    # The DEF asked about is the highlighted bar.
    assert [i for i, (cls, _) in enumerate(bars, start=1) if "current" in cls] == [4]
    table = re.search(r'data-testid="chart-table">(.*?)</table>', html, re.S)[1]
    assert re.findall(r"(\d+)%", table) == [
        "90",
        "80",
        "70",
        "60",
        "50",
        "40",
        "35",
        "30",
        "30",
        "25",
    ]


# ---------------------------------------------------------------- the player's own units


@pytest.fixture
def armies(player):
    mine = ArmyFactory(
        owner=player, system="gem", profiles=[KNIGHT, ARCHER, TANK, {**ARCHER, "def": "d6+1"}]
    )
    names = {"Unit 1": "Knights", "Unit 2": "Archers", "Unit 3": "Tank", "Unit 4": "Rolled"}
    rename_units(mine, names)
    units = {u.name: u.pk for u in mine.units.all()}
    theirs = ArmyFactory(owner=UserFactory(), system="gem", profiles=[KNIGHT], name="Secret army")
    rename_units(theirs, name="Secret knights")
    return units, theirs.units.get().pk


def test_own_units_as_attacker_and_target(player_client, armies):
    units, _ = armies
    html = page(player_client, f"{TABLE_1}?attacker={units['Knights']}&target={units['Archers']}")
    rows = odds_rows(html)

    # Knights (OFF 6, ATT 2) vs the archers' DEF 4 need 8: 8..20, 13 of 20; 2 dice: 1.3.
    assert rows["Basic attack"] == ["6", "2", "–", "8+", "13 in 20 (65%)", "1.3", "1.3"]
    # The horse (OFF 3, ATT 1) needs 13: 8 of 20 = 0.4. Together 1.7 hits a melee turn.
    assert rows["Horse"][3:] == ["13+", "8 in 20 (40%)", "0.4", "0.4"]
    assert text(re.search(r'data-testid="melee-total">(.*?)<', html)[1]) == "1.7"
    assert "Knights (Test army) against Archers (Test army) (DEF 4)" in text(html)


def test_archers_shoot_the_knights_with_missile_modifiers(player_client, armies):
    units, _ = armies
    url = f"{TABLE_1}?attacker={units['Archers']}&target={units['Knights']}"
    html = page(player_client, url + "&modifiers=large-target&modifiers=over-half-range")
    rows = odds_rows(html)

    # Bow OFF 4 vs DEF 7 needs 15; +1 large, −2 beyond half range: 16..20, 5 of 20.
    assert rows["Bow"][2:5] == ["−1", "15+", "5 in 20 (25%)"]
    # The bow is not melee: the archers' own OFF 3 needs 17 there, no modifiers: 4 of 20.
    assert rows["Basic attack"][2:5] == ["–", "17+", "4 in 20 (20%)"]
    # The knights stand on 40mm bases: the page suggests the large-target modifier.
    assert "40mm base" in html


def test_a_vehicle_fires_all_its_weapons_and_heavy_ones_not_after_moving(player_client, armies):
    units, _ = armies
    url = f"{TABLE_1}?attacker={units['Tank']}&def=4"
    rows = odds_rows(page(player_client, url + "&modifiers=target-moved"))
    # Cannon OFF 9 vs DEF 4 needs 5: 16 of 20, an area weapon ignores the −2, and it fires
    # every turn: 0.8 hits a figure under the template. MG OFF 5 needs 9, at −2 11: 10 of 20.
    assert rows["Cannon"][4:] == ["16 in 20 (80%)", "0.8", "0.8"]
    assert rows["MG"][4:] == ["10 in 20 (50%)", "1.5", "1.5"]

    html = page(player_client, url + "&modifiers=firer-moved")
    rows = odds_rows(html)
    assert rows["Cannon"][3] == "–" and "heavy: cannot fire after moving" in html
    assert rows["MG"][4] == "10 in 20 (50%)"


def test_a_rolled_def_must_be_typed(player_client, armies):
    units, _ = armies
    html = page(player_client, f"{TABLE_1}?off=5&target={units['Rolled']}")

    assert "d6+1" in errors(html)["target"]


def test_another_players_units_are_never_listed_nor_usable(player_client, armies):
    units, secret = armies
    html = page(player_client, TABLE_1)
    assert "Knights" in html and "Secret" not in html

    for query in (f"attacker={secret}&def=4", f"off=5&target={secret}"):
        html = page(player_client, f"{TABLE_1}?{query}")
        assert "Pick one of your own GEM units." in " ".join(errors(html).values())
        assert "Secret" not in html and 'data-testid="odds"' not in html
    # Logged out, no unit id works at all.
    player_client.logout()
    html = page(player_client, f"{TABLE_1}?attacker={units['Knights']}&def=4")
    assert "Pick one of your own GEM units." in errors(html)["attacker"]
    assert "Knights" not in html


def test_units_in_the_trash_are_not_offered(player_client, player, armies):
    units, _ = armies
    trashed = ArmyFactory(owner=player, system="gem", profiles=[KNIGHT], name="Binned army")
    services.trash_army(trashed.owner, trashed.pk)
    archers = Unit.objects.get(pk=units["Archers"])
    services.trash_unit(archers.army, archers.pk, None)

    html = page(player_client, TABLE_1)
    assert "Binned army" not in html and "Archers" not in html and "Knights" in html
    html = page(player_client, f"{TABLE_1}?attacker={units['Archers']}&def=4")
    assert errors(html)["attacker"] == "Pick one of your own GEM units."


def test_calculator_queries_stay_constant(player_client, player, armies, django_assert_num_queries):
    units, _ = armies
    for _ in range(3):
        ArmyFactory(owner=player, system="gem", profiles=[KNIGHT] * 20)
    # session, user, the ids of the player's latest GEM armies, their units (with the
    # armies' names)
    with django_assert_num_queries(4):
        page(player_client, f"{TABLE_1}?attacker={units['Knights']}&target={units['Archers']}")


def test_htmx_gets_only_the_calculator(client):
    response = client.get(f"{TABLE_1}?off=5&def=5", headers={"HX-Request": "true"})
    html = response.content.decode()

    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="calculator"')
    assert "<html" not in html


# ---------------------------------------------------------------- d10 chances


def test_d10_chance_with_a_modifier(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        html = page(client, f"{D10}?stat=5&modifier=2")

    # Target 12: stat 5 needs 7, 8, 9 or the 0: 4 of 10. A critical needs 17: never, but the
    # natural 0 reaches 15 only; 0 of 10.
    assert text(re.search(r'data-testid="success">(.*?)<', html)[1]) == "4 in 10 (40%)"
    assert text(re.search(r'data-testid="critical">(.*?)<', html)[1]) == "0 in 10 (0%)"
    # The chart runs over stats 1..10 at target 12: only the 0 for 1 and 2, then one face
    # more per point up to 10, which fails only on the 1.
    table = re.search(r'data-testid="chart-table">(.*?)</table>', html, re.S)[1]
    assert re.findall(r"(\d+)%", table) == [
        "10",
        "10",
        "20",
        "30",
        "40",
        "50",
        "60",
        "70",
        "80",
        "90",
    ]


def test_d10_contested_roll(client):
    html = page(client, f"{D10}?stat=5&opponent=5")

    # Stat 5 succeeds on 5..9 and 0. Both fail 4 × 4 = 16; one alone 24 each way; both:
    # 6 ties to the active side and 15 higher rolls each way -> 45 / 39 / 16 in 100.
    def row(name: str) -> list[str]:
        return [
            text(c)
            for c in re.findall(
                r"<td[^>]*>(.*?)</td>", re.search(rf'id="contest-{name}">(.*?)</tr>', html, re.S)[1]
            )
        ]

    assert row("active") == ["45 in 100 (45%)", "15%"]
    assert row("passive") == ["39 in 100 (39%)", "15%"]
    assert row("neither")[0] == "16 in 100 (16%)"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("stat=0", "stat"),
        ("stat=11", "stat"),
        ("stat=x", "stat"),
        ("stat=5&modifier=99", "modifier"),
        ("stat=5&opponent=-1", "opponent"),
    ],
)
def test_d10_bad_input_gets_a_message_beside_its_field(client, query, field):
    html = page(client, f"{D10}?{query}")

    assert field in errors(html)
    assert 'data-testid="success"' not in html


def test_d10_rules_page_links_to_the_chances(client):
    assert f'href="{D10}" data-testid="chances-link"' in page(client, "/rules/d10/")


# ---------------------------------------------------------------- fuzzed query strings

FIELDS = ("attacker", "off", "att", "target", "def", "modifiers")
FIELDS += ("stat", "modifier", "opponent", "opponent_modifier")
VALUES = st.one_of(
    st.text(max_size=12),
    st.integers(-1000, 1000).map(str),
    st.sampled_from(["", "5", "1", "10", "²", "5.5", "1e3", " 3 ", "0x5", "hard-cover"]),
)


@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    url=st.sampled_from([TABLE_1, D10]),
    query=st.dictionaries(
        st.sampled_from(FIELDS),
        st.lists(VALUES, min_size=1, max_size=3),
        max_size=6,
    ),
)
def test_fuzzed_query_strings_never_fail(player_client, armies, url, query):
    response = player_client.get(url, query)

    assert response.status_code == 200


def test_the_unit_picker_lists_only_the_most_recent_armies_but_takes_any_own_unit(
    player_client, player, django_assert_num_queries
):
    swordsman = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    armies = [
        ArmyFactory(owner=player, system="gem", profiles=[swordsman], name=f"Army {i}")
        for i in range(7)
    ]
    for i, army in enumerate(armies):
        rename_units(army, name=f"Warband {i}")  # edited in order: Army 6 is the latest
    # session, user, the listed armies' ids and their units, nothing more however many
    # armies there are
    with django_assert_num_queries(4):
        html = page(player_client, "/rules/gem/table-1/")
    assert "Warband 6" in html and "Warband 2" in html
    assert "Warband 1" not in html and "Warband 0" not in html
    # The builder's link for an older army's unit still charts it.
    oldest = armies[0].units.get()
    html = page(player_client, f"/rules/gem/table-1/?attacker={oldest.pk}&def=4")
    assert "Warband 0 (Army 0)" in html
