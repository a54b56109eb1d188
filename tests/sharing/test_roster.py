"""The printable roster sheet: per-system numbers (worked out by hand from the seeds),
the share QR code, who may see it, escaping and query counts."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.core.cache import cache

import points
from armies import services
from armies.models import Army
from points import vsgmr
from tests.factories import ArmyFactory, sample_file
from tests.helpers import rename_units
from tests.samples import GEMINI_TANK, army_file

pytestmark = pytest.mark.django_db

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
TANK = GEMINI_TANK["profile"]


def roster(client, army: Army) -> str:
    response = client.get(f"/armies/{army.pk}/roster/")
    assert response.status_code == 200
    return response.content.decode()


def unit_block(html: str, name: str) -> str:
    """The HTML of one unit's card, found by its name."""
    for block in html.split('<section class="unit"')[1:]:
        if re.search(rf'<h2 id="unit-\d+">{re.escape(name)}</h2>', block):
            return block.split("</section>")[0]
    raise AssertionError(f"no card for {name}")


def hit_row(block: str, label: str) -> list[tuple[str, str]]:
    """(score needed, chance) against DEF 1..10 from a card's to-hit table row."""
    table = block.split('data-testid="to-hit"')[1].split("</table>")[0]
    # A name is wrapped in .typed, so a name of one long word breaks (issue 28).
    name = rf'<th scope="row" class="name"><span class="typed">{re.escape(label)}</span></th>'
    row = re.search(rf"{name}(.*?)</tr>", table)
    assert row is not None, f"no to-hit row {label}"
    cells = re.findall(
        r'<span class="need">(\d+)\+</span><span class="pct">([\d.]+)%</span>', row[1]
    )
    return cells


def facts(block: str) -> dict[str, str]:
    return {
        unescape(dt): unescape(dd) for dt, dd in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block)
    }


def boxes(block: str, label: str) -> list[int]:
    """Tick boxes per model in the row of boxes with this label."""
    row = re.search(
        rf'<span class="boxes-label">{re.escape(label)}</span>(.*?)</div>', block, re.DOTALL
    )
    assert row is not None, f"no boxes {label}"
    groups = re.findall(
        r'<span class="box-group[^"]*">((?:<span class="box"></span>)*)</span>', row[1]
    )
    return [g.count('class="box"') for g in groups]


# ---------------------------------------------------------------- GEM


def test_gem_card_shows_stats_and_table_1_chances_worked_by_hand(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[
            {**SWORDSMAN, "off": 5, "def": "d6+1"},
            {
                "type": "skirmisher",
                "base": "25mm",
                "off": 4,
                "def": 4,
                "hit": 2,
                "melee": [{"name": "Dagger", "off": 10}],
                "missile": [{"name": "Sling", "off": 1, "range": 12}],
            },
        ],
    )
    rename_units(army, {"Unit 2": "Skirmishers"}, quantity=3)
    html = roster(player_client, army)

    first = unit_block(html, "Unit 1")
    # Stats as typed, the dice expression included.
    assert "<td>5</td>" in first and "<td>d6+1</td>" in first
    # Table 1, OFF 5 against DEF 5 needs 11: 11..20 is 10 faces of 20, 50%.
    row = hit_row(first, "Basic attack")
    assert len(row) == 10
    assert row[4] == ("11", "50")
    # OFF 5 against DEF 1 needs 3 (18 faces, 90%); against DEF 10, 16 (5 faces, 25%).
    assert row[0] == ("3", "90") and row[9] == ("16", "25")

    second = unit_block(html, "Skirmishers")
    # OFF 4: 3 6 9 11 13 14 15 16 17 17 in Table 1.
    needed = [n for n, _ in hit_row(second, "Basic attack")]
    assert needed == ["3", "6", "9", "11", "13", "14", "15", "16", "17", "17"]
    # OFF 10 against DEF 1 needs 2: only a natural 1 misses, 95%; against DEF 10, 11+ is 50%.
    dagger = hit_row(second, "Dagger")
    assert dagger[0] == ("2", "95") and dagger[9] == ("11", "50")
    # OFF 1 against DEF 10 needs a natural 20: 5%.
    assert hit_row(second, "Sling")[9] == ("20", "5")
    assert "<td>12″</td>" in second and "every turn" in second
    # Skirmisher, 25mm, off 4 def 4 hit 2 + dagger + sling, priced by the engine: 3 of them.
    each = (
        points.SYSTEMS["gem"]
        .price(points.SYSTEMS["gem"].parse_profile(army.units.get(name="Skirmishers").profile, "p"))
        .each
    )
    assert f"3 × {float(each):g} = <strong>{float(each * 3):g}</strong> pts" in second
    # HIT 2 × 3 models: three groups of two boxes.
    assert boxes(second, "HIT") == [2, 2, 2]


def test_gem_worked_examples_cost_as_the_spec_says_on_the_sheet(player_client, player):
    army = ArmyFactory(owner=player, file=sample_file("worked_examples", "gem"))
    html = roster(player_client, army)
    for name, cost in [
        ("Swordsman", "6.5"),
        ("Archer", "25.3"),
        ("Knight", "54.3"),
        ("Tank", "1348.1"),
        ("Block of 18", "5.3"),
    ]:
        assert f'data-testid="unit-cost"><strong>{cost}</strong> pts' in unit_block(html, name)
    # 6.5 + 25.3 + 54.3 + 1348.1 + 5.3
    assert 'data-testid="army-total">1439.5<' in html
    # Archer: its bow (OFF 4) gets its own row; against DEF 4, 11+, 50%.
    assert hit_row(unit_block(html, "Archer"), "Bow")[3] == ("11", "50")


def test_gem_vehicle_card_shows_gemini_characteristics_and_handling_aids(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[TANK])
    block = unit_block(roster(player_client, army), "Unit 1")
    shown = facts(block)
    assert shown["Max speed"] == "2d6+8″ (avg 15″)"
    assert shown["Class"] == "tracked"
    assert shown["Battle speed"] == "12″"
    assert shown["TRR"] == "0.5"
    assert shown["Armour F/S/R"] == "13 / 12 / 10"
    assert shown["Hull points"] == "3"
    # Tracked: road speed is battle speed 12 + 6 = 18.
    assert shown["Road speed"].startswith("18″")
    # TRR 0.5 × 12 = 6 at battle speed; × 15 (average of 2d6+8) = 7.5 at max speed.
    assert shown["Turn radius at battle speed"] == "6″"
    assert shown["Turn radius at max speed"] == "7.5″"
    # 57° ÷ 0.5 = 114° per move.
    assert shown["Largest turn per move"] == "114°"
    # Half of max speed (average 15).
    assert shown["Reverse up to"].startswith("7.5″")
    # 12″ less 2″ per 45° turn: 10, 8, 6, 4 (the seed's Predator turning 180° keeps 4″).
    turns = re.search(r'<table class="grid turns">.*?<tbody>(.*?)</tbody>', block, re.DOTALL)
    assert re.findall(r"<td>([\d.]+)″</td>", turns[1]) == ["10", "8", "6", "4"]
    # Cannon OFF 9: DEF 1 needs 2 (95%), DEF 10 needs 12 (9 faces, 45%).
    cannon = hit_row(block, "Cannon")
    assert cannon[0] == ("2", "95") and cannon[9] == ("12", "45")
    assert "heavy" in block and "every other turn" in block
    assert boxes(block, "HIT") == [6]
    assert boxes(block, "Hull points") == [3]


def test_an_imported_vehicle_with_an_off_shows_it_and_its_table_1_odds(player_client, player):
    doc = {"format": "muster-army/1", "name": "Rams", "system": "gem", "units": []}
    doc["units"] = [{"name": "Ram", "profile": TANK | {"off": 3}}, {"name": "Gun", "profile": TANK}]
    player_client.post("/armies/import/", {"text": json.dumps(doc)})
    html = roster(player_client, Army.objects.get(owner=player, name="Rams"))

    ram, gun = unit_block(html, "Ram"), unit_block(html, "Gun")
    assert '<th scope="col">OFF</th>' in ram.split("</thead>")[0]
    assert '<th scope="col">OFF</th>' not in gun.split("</thead>")[0]
    # Table 1, OFF 3: DEF 1 needs 4 (4..20, 17 faces, 85%); DEF 10 needs 18 (3 faces, 15%).
    row = hit_row(ram, "Basic attack")
    assert row[0] == ("4", "85") and row[9] == ("18", "15")
    assert "Basic attack" not in gun
    # Not priced: both cost the Tank's 1348.1 (SPEC 3.2).
    assert html.count('data-testid="unit-cost"><strong>1348.1</strong> pts') == 2


def test_gem_tick_boxes_are_capped_on_a_big_unit(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[{**SWORDSMAN, "hit": 5}])
    rename_units(army, quantity=500)
    block = unit_block(roster(player_client, army), "Unit 1")
    # 120 boxes at most: 24 models of HIT 5, the other 476 counted on the back.
    assert boxes(block, "HIT") == [5] * 24
    assert "476 more" in block


def test_gem_rolled_or_fractional_stats_get_a_note_not_a_wrong_row(player_client, player):
    profile = {**SWORDSMAN, "off": "d6+2", "hit": "d3", "melee": [{"name": "Claw", "off": 2.5}]}
    block = unit_block(
        roster(player_client, ArmyFactory(owner=player, system="gem", profiles=[profile])), "Unit 1"
    )
    assert "rolled: look up Table 1 once rolled" in block
    assert "no Table 1 row" in block
    assert "rolled (d3): write it down when rolled" in block
    assert 'class="need"' not in block


@pytest.mark.parametrize("system", ["gem", "vsgmr", "goms", "d10"])
def test_an_empty_army_still_prints(player_client, player, system):
    html = roster(player_client, ArmyFactory(owner=player, system=system, profiles=[]))
    assert "No units yet." in html


# ---------------------------------------------------------------- VSGMR


def test_vsgmr_card_reminds_each_trait_and_power_and_ticks_each_figure(player_client, player):
    dwarves = ArmyFactory(owner=player, file=sample_file("dwarves"))
    html = roster(player_client, dwarves)
    # VSGMR VII: Dwarves, 28 points; Guards are 3 heroes at 2 + heavy 2 + tough 2 = 6 each.
    assert 'data-testid="army-total">28<' in html
    guards = unit_block(html, "Guards")
    assert "3 × 6 = <strong>18</strong> pts" in guards
    assert boxes(guards, "Figures") == [1, 1, 1]
    assert vsgmr.TRAITS["tough"].summary in guards
    thane = unit_block(html, "Thane")
    assert "Hero guy · commander" in thane
    assert facts(thane)["Armour"] == "heavy (free: hero commander)"
    assert "✓ Legal" in html

    team = ArmyFactory(owner=player, file=sample_file("justice-team"))
    hero = unit_block(roster(player_client, team), "Super-Guy")
    # Section VI: a superior super power rolls a 12-sided die, a minor one an 8-sided die.
    assert "<strong>Super-Armor (superior)</strong>: d12 for armour rolls" in hero
    assert "<strong>Super-Blast (minor)</strong>: d8 for distance attacks" in hero
    assert vsgmr.TRAITS["flight"].summary in hero


def test_vsgmr_super_move_is_not_printed_as_a_bigger_die(player_client, player):
    profile = {
        "kind": "guy",
        "flavor": "hero",
        "commander": True,
        "super_powers": {"super-move": "major"},
    }
    html = roster(player_client, ArmyFactory(owner=player, system="vsgmr", profiles=[profile]))
    line = re.search(r"<strong>Super-Move \(major\)</strong>: ([^<]*)</li>", html)
    assert line is not None and "d10" not in line[1]


def test_vsgmr_sheet_lists_the_errors_when_not_legal(player_client, player):
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}], points_limit=0
    )
    html = roster(player_client, army)
    assert "✗ Not legal" in html
    assert "no commander" in html and "over its limit" in html


# ---------------------------------------------------------------- G.O.M.S.


def test_goms_card_shows_morale_men_acquisition_and_army_purchases(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="goms",
        profiles=[
            {"kind": "rifle-section", "morale": "veteran", "men": 8},
            {"kind": "vehicle", "vehicle_class": "medium"},
            {"kind": "company-hq"},
        ],
    )
    options = {"rerolls": 2, "setup_extensions": 1, "dug_in": True}
    services.save_settings(army, {"options": options}, None)
    html = roster(player_client, army)
    # 3 units at 1 point + 2 rerolls + 1 extension + dug in = 7 points.
    assert 'data-testid="army-total">7<' in html
    rifles = unit_block(html, "Unit 1")
    assert facts(rifles)["Morale"] == "Veteran (8)"
    assert facts(rifles)["Men"] == "8"
    assert boxes(rifles, "Men") == [8]
    # Infantry acquisition: a 6 is full strength, a 1 loses 4 men and an LMG.
    assert '<th scope="row">6</th><td>Full strength</td>' in rifles
    assert '<th scope="row">1</th><td>Lose 4 men and an LMG</td>' in rifles
    tank = unit_block(html, "Unit 2")
    assert facts(tank)["Class"] == "medium"
    # Medium vehicles: a 1 does not show, a 4 arrives on a 4+.
    assert '<th scope="row">1</th><td>Doesn&#x27;t show</td>' in tank
    assert '<th scope="row">4</th><td>Arrives on a 4+</td>' in tank
    hq = unit_block(html, "Unit 3")
    assert facts(hq)["Morale"] == "Trained but green (7)"
    assert "4 riflemen" in facts(hq)["Make-up"]
    # No rifle platoon to hang the company HQ on: an error on the sheet.
    assert "✗ Not legal" in html and "company" in html.lower()
    panel = html.split('<section class="army-panel"')[1].split("</section>")[0]
    assert "Rerolls: 2" in panel and "Dug in" in panel
    assert facts(panel)["Set-up zone extension"] == "+8″"
    assert facts(panel)["Game size"].startswith("medium")
    assert boxes(panel, "Rerolls used") == [1, 1]


def test_goms_header_shows_the_set_up_zone_its_purchases_line_prices(player_client, player):
    rifles = {"kind": "rifle-section"}
    doc = army_file("Paras", "goms", None, [("Rifles", 1, rifles), ("More rifles", 3, rifles)])
    army = ArmyFactory(owner=player, file={**doc, "options": {"setup_extensions": 4}})

    html = roster(player_client, army)

    panel = html.split('<section class="army-panel"')[1].split("</section>")[0]
    # 4 extensions of 8″ were bought (4 points); at most 3 (24″) are allowed.
    assert '<th scope="row">Set-up zone +32&quot;</th><td class="num">4 pts</td>' in panel
    assert facts(panel)["Set-up zone extension"] == "+32″ bought, only +24″ allowed"
    # One section at 1 point reads "1 pts", not "1 × 1 = 1 pts".
    assert 'data-testid="unit-cost"><strong>1</strong> pts' in unit_block(html, "Rifles")
    assert "1 × 1 =" not in html
    assert "3 × 1 = <strong>3</strong> pts" in unit_block(html, "More rifles")


# ---------------------------------------------------------------- d10


def test_d10_card_shows_success_chances_force_points_and_break_point(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="d10",
        profiles=[
            {
                "leader": True,
                "combat_skill": 1,
                "shooting": 7,
                "willpower": 10,
                "defence": 12,
                "move": 6,
                "weapons": ["Carbine/AR", "Plasma lance"],
            },
            {},
            {},
            {},
        ],
    )
    html = roster(player_client, army)
    leader = unit_block(html, "Unit 1")
    skills = dict(
        re.findall(
            r'<span class="need">(\d+)</span><span class="pct">(\d+)%</span>',
            leader.split('data-testid="skills"')[1].split("</table>")[0],
        )
    )
    # stat + d10 ≥ 10, the 0 face counting as 10, a natural 1 failing:
    # 1 succeeds on 9 and 0 (20%), 5 on 5-9 and 0 (60%), 7 on 3-9 and 0 (80%),
    # 10 on everything but the 1 (90%).
    assert skills == {"1": "20", "5": "60", "7": "80", "10": "90"}
    assert facts(leader)["Defence"] == "12"
    assert facts(leader)["Move"] == "6″"
    assert facts(leader)["Leader"] == "yes"
    assert 'data-testid="unit-cost"><strong>2</strong> FP' in leader
    # The seed's weapon table: a carbine reaches 24″ with damage 5.
    assert (
        '<th scope="row" class="name"><span class="typed">Carbine/AR</span></th><td>24/-</td>'
        in leader
    )
    assert "Plasma lance" in leader and "homebrew" in leader
    # A leader is 2 force points and three models 1 each: 5, breaking at half, 2.5.
    assert 'data-testid="army-total">5<' in html
    panel = html.split('<section class="army-panel"')[1].split("</section>")[0]
    assert facts(panel)["Break point"].startswith("2.5")
    assert boxes(panel, "Force points downed or dead") == [1, 1, 1, 1, 1]
    # The third point downed passes half of 5: that box is marked.
    assert panel.count('class="box-group box-mark"') == 1
    marked = panel.split('class="box-group')
    assert ' box-mark"' in marked[3] and "◀ breaks" in marked[3]


# ---------------------------------------------------------------- sharing and access


def test_qr_code_of_the_share_link_only_when_shared(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    assert "<svg" not in roster(player_client, army)
    token = services.share_army(army)
    html = roster(player_client, army)
    assert html.count("<svg") == 1 and 'class="segno"' in html
    assert f">http://testserver/s/{token}/</a>" in html


def qr_of(html: str) -> str:
    return html.split('<div class="sheet-qr-code"')[1].split("</div>")[0]


def test_the_qr_code_follows_the_link_it_prints(player_client, player, settings):
    # Drawn when the owner makes the link and printed from then on, an empty cache
    # included; a new link gets a new code, and the site reached by another name (a phone
    # on the home network) gets a code of the address printed beside it.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    player_client.post(f"/armies/{army.pk}/share/")
    army.refresh_from_db()
    cache.clear()
    first = qr_of(roster(player_client, army))
    assert 'class="segno"' in first
    player_client.post(f"/armies/{army.pk}/share/")  # a new link: the old one is revoked
    army.refresh_from_db()
    cache.clear()
    html = roster(player_client, army)
    assert f">http://testserver/s/{army.share_token}/</a>" in html
    second = qr_of(html)
    assert 'class="segno"' in second and second != first
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.20"]
    response = player_client.get(f"/armies/{army.pk}/roster/", HTTP_HOST="192.168.1.20")
    html = response.content.decode()
    assert f">http://192.168.1.20/s/{army.share_token}/</a>" in html
    assert qr_of(html) not in (first, second)
    # The opponent's copy of the sheet prints the same code as the owner's.
    assert qr_of(player_client.get(f"/s/{army.share_token}/roster/").content.decode()) == second


def test_roster_needs_a_login_for_the_owners_url(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN])
    response = client.get(f"/armies/{army.pk}/roster/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_shared_roster_opens_anonymously_and_leaks_no_referrer(client, player):
    army = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[{"kind": "guy", "flavor": "hero", "commander": True}],
    )
    token = services.share_army(army)
    response = client.get(f"/s/{token}/roster/")
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "same-origin"
    html = response.content.decode()
    assert 'data-testid="army-total">2<' in html
    assert "<svg" in html
    # Back goes to the shared page, never to the owner's builder.
    assert f'href="/s/{token}/">Back</a>' in html
    assert f"/armies/{army.pk}/" not in html
    services.unshare_army(army)
    assert client.get(f"/s/{token}/roster/").status_code == 404


def test_print_view_has_no_navigation_footer_or_inline_script(player_client, player):
    html = roster(player_client, ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN]))
    assert "<nav" not in html and "<footer" not in html
    assert "roster.css" in html and "js/print.js" in html
    assert "<script>" not in html and " style=" not in html and "onclick" not in html
    assert "data-print hidden>Print</button>" in html


def test_user_text_is_escaped_everywhere_on_the_sheet(player_client, player):
    evil = "<script>alert(1)</script>"
    army = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[
            {
                "kind": "guy",
                "flavor": "hero",
                "commander": True,
                "traits": [{"name": "<b>Bold</b>", "cost": 1, "text": evil}],
            }
        ],
        name=evil,
    )
    services.save_settings(army, {"notes": evil}, None)
    rename_units(army, name=evil)
    services.share_army(army)
    html = roster(player_client, army)
    assert evil not in html and "<b>Bold</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    gem_army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{**SWORDSMAN, "missile": [{"name": evil, "off": 3, "range": 6}]}],
    )
    assert evil not in roster(player_client, gem_army)
    d10_army = ArmyFactory(owner=player, system="d10", profiles=[{"weapons": [evil]}])
    assert evil not in roster(player_client, d10_army)


@pytest.mark.parametrize("size", [1, 200])
def test_roster_uses_constant_queries(client, player, size, django_assert_num_queries):
    army = ArmyFactory(
        owner=player, system="gem", profiles=[SWORDSMAN, TANK] * (size // 2) or [TANK]
    )
    token = services.share_army(army)
    client.force_login(player)
    # session, user, army, the units with issues (listed under the header), each unit's
    # stored card
    with django_assert_num_queries(5):
        assert client.get(f"/armies/{army.pk}/roster/").status_code == 200
    client.logout()
    # With an empty cache, the shared roster reads the army (with its owner's name), the
    # units with issues and each unit's stored card (no roll: GEM).
    cache.clear()
    with django_assert_num_queries(3):
        assert client.get(f"/s/{token}/roster/").status_code == 200


@pytest.mark.parametrize("size", [1, 50])
def test_a_roster_listing_every_units_issue_uses_constant_queries(
    player_client, size, django_assert_num_queries, player
):
    # A Support hero whose roll is not chosen carries a warning of its own (SPEC 3.3).
    helper = {"kind": "guy", "flavor": "hero", "traits": ["support"]}
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[helper] * size)
    # session, user, army, the units with issues, each unit's stored card
    with django_assert_num_queries(5):
        html = player_client.get(f"/armies/{army.pk}/roster/").content.decode()
    issues = re.search(r'data-testid="army-issues">(.*?)</ul>', html, re.S)[1]
    assert issues.count("choose the roll its Support trait helps") == size
    assert f"Unit {size}: choose the roll" in issues


def test_gem_vehicle_card_shows_dangerous_terrain_odds(player_client, player):
    army = ArmyFactory(
        owner=player, system="gem", profiles=[TANK, {**TANK, "max_speed": 6, "battle_speed": 4}]
    )
    html = roster(player_client, army)

    fast = facts(unit_block(html, "Unit 1"))
    # Up to 6″ one d6: a 1 immobilises, 1 in 6.
    assert fast["Dangerous terrain at 6″ or less"] == "1 in 6 (≈16.7%) immobilised"
    # Faster, two d6: of 36 rolls, 10 have exactly one 1 (immobilised), 1 has two (destroyed).
    assert fast["Dangerous terrain above 6″"] == (
        "11 in 36 (≈30.6%) stopped: 10 in 36 (≈27.8%) immobilised, 1 in 36 (≈2.8%) destroyed"
    )
    # A vehicle that never goes above 6″ never rolls the two dice.
    slow = facts(unit_block(html, "Unit 2"))
    assert "Dangerous terrain above 6″" not in slow
    assert slow["Dangerous terrain at 6″ or less"].startswith("1 in 6")


def test_roster_toolbar_links_the_odds_for_gem_and_d10(player_client, player):
    gem_html = roster(player_client, ArmyFactory(owner=player, system="gem", profiles=[SWORDSMAN]))
    d10_html = roster(player_client, ArmyFactory(owner=player, system="d10", profiles=[{}]))
    vsgmr_html = roster(
        player_client,
        ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}]),
    )

    assert 'href="/rules/gem/table-1/" data-testid="odds-link"' in gem_html
    assert 'href="/rules/d10/chances/" data-testid="odds-link"' in d10_html
    assert 'data-testid="odds-link"' not in vsgmr_html
