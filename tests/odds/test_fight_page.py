"""The fight odds calculator `/rules/<system>/fight/` (SPEC 3.8, 5; issue #29) and the
"Odds against…" links that open it from a unit."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from django.urls import reverse
from django.utils.http import urlencode

from armies import services
from tests.factories import ArmyFactory, UnitFactory, UserFactory

pytestmark = pytest.mark.django_db

HERO = {"kind": "guy", "flavor": "hero"}
TROOP = {"kind": "guy", "flavor": "troop"}
SINGLE = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def url(system: str = "vsgmr", **query: object) -> str:
    return f"{reverse('odds:fight', args=[system])}?{urlencode(query)}"


def percents(page: str) -> list[str]:
    return re.findall(r'data-testid="outcome-percent">([^<]*)<', page)


def feedback(page: str, field: str) -> str:
    found = re.search(rf'id="fb-{field}"[^>]*>(.*?)</', page, re.S)
    return html.unescape(found.group(1)).strip() if found else ""


def test_own_hero_against_a_typed_troop_shows_three_in_five(player_client, player):
    army = ArmyFactory(owner=player, name="Heroes", profiles=[HERO])
    hero = army.units.get()

    page = player_client.get(
        url(a_unit=hero.pk, b_profile=json.dumps(TROOP), b_name="Grunt", fight="hand-to-hand")
    ).content.decode()

    # Worked by hand (tests/points/test_fights.py): 3/5, never a draw, 2/5.
    assert percents(page) == ["60.0%", "0.0%", "40.0%"]
    assert "3/5" in page and "2/5" in page
    assert "Unit 1 against Grunt" in page
    assert "2 points (1 × 2), from your army Heroes" in page
    assert 'data-testid="fight-working"' in page
    assert "d6 4+ hand to hand" in page
    assert '<svg viewBox="0 0' in page and "style=" not in page.split('id="fight-result"')[1]


def test_a_gem_melee_from_a_sample_and_a_typed_profile(client):
    # The GEM sample's first unit exists; against itself the chances are equal.
    page = client.get(url("gem", a_catalog="border-warband:0", b_catalog="border-warband:0"))
    text = page.content.decode()

    a, _draw, b = percents(text)
    assert a == b
    assert "Morale (fear and rout checks)" in text


def test_a_charge_is_ticked_per_side(client):
    # Hand-derived: OFF 4 v DEF 4 with a first-round charge: 11/30, 4/15 and 11/30.
    page = client.get(
        url("gem", a_profile=json.dumps(SINGLE), b_profile=json.dumps(SINGLE), a_mod="charged")
    ).content.decode()

    assert percents(page) == ["36.7%", "36.7%", "26.7%"]
    assert "11/30" in page and "4/15" in page


def test_a_share_link_fills_a_side(client, player):
    army = ArmyFactory(owner=player, name="Theirs", profiles=[TROOP, HERO])
    token = services.share_army(army)

    page = client.get(
        url(a_profile=json.dumps(TROOP), b_share=f"http://testserver/s/{token}/", b_pick=2)
    ).content.decode()

    # B is the hero: the troop wins 2/5.
    assert percents(page) == ["40.0%", "0.0%", "60.0%"]
    assert "from the shared army Theirs" in page


def test_a_revoked_share_link_is_told_beside_the_field(client):
    page = client.get(url(a_profile=json.dumps(TROOP), b_share="/s/not-a-real-token-at-all/"))

    assert page.status_code == 200
    assert "No army is shared under that link" in feedback(page.content.decode(), "b_share")


def test_someone_elses_unit_is_refused_like_any_other_choice(client, player):
    other = UnitFactory(army=ArmyFactory(owner=UserFactory()), profile=HERO)
    client.force_login(player)

    page = client.get(url(a_unit=other.pk, b_profile=json.dumps(TROOP))).content.decode()

    assert "Pick one of your own units" in feedback(page, "a_unit")
    assert 'data-testid="fight-result"' not in page


def test_a_bad_typed_profile_is_told_beside_it_and_kept(client):
    typed = '{"kind": "guy", "flavor": "wizard"}'

    page = client.get(url(a_profile=typed, b_profile=json.dumps(TROOP))).content.decode()

    assert feedback(page, "a_profile").startswith("a.profile.flavor: must be one of")
    assert html.escape(typed, quote=False) in page or html.escape(typed) in page
    broken = client.get(url(a_profile="{not json", b_profile=json.dumps(TROOP))).content.decode()
    assert "Type the profile as JSON" in feedback(broken, "a_profile")


BIG = {**SINGLE, "hit": 3, "att": 3}


def losses(page: str, side: str) -> list[list[str]]:
    """Side `side`'s losses table, row by row, as the cells read."""
    found = re.search(rf'data-testid="losses-{side}".*?<tbody>(.*?)</tbody>', page, re.S)
    assert found, f"no losses table for side {side}"
    rows = re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)
    return [[html.unescape(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)] for r in rows]


def test_a_large_melee_is_walked_in_double_precision_and_says_so_once(client):
    # 30 models of HIT 3 a side (90 HIT): too long to add up exactly in a fifth of a
    # second, so walked in double precision (SPEC 3.8) and answered, not refused.
    page = client.get(
        url(
            "gem",
            a_profile=json.dumps(BIG),
            a_quantity=30,
            b_profile=json.dumps(BIG),
            b_quantity=30,
        )
    ).content.decode()

    assert 'data-testid="fight-refused"' not in page
    a, _draw, b = percents(page)
    assert a == b  # the same unit on both sides
    note = re.findall(r'data-testid="double-precision">([^<]*)<', page)
    assert len(note) == 1
    assert re.fullmatch(
        r"Worked out in double precision: each chance is within \de-1\d of the exact one\.",
        note[0],
    )
    assert ">To 12 digits<" in page and ">Exactly<" not in page
    # A row a model, the last one every model: certain. 31 rows at most (0 to 30 models).
    rows = losses(page, "a")
    assert rows[-1] == ["30", "90", "100.0%"]
    assert 2 <= len(rows) <= 31
    assert not any(r[-1] in ("0.0%", "100.0%") for r in rows[:-1])  # none certain but all
    assert page.count('data-testid="losses-table"') == 2


def test_a_melee_past_two_hundred_hit_links_to_the_largest_answered(client):
    # 70 models of HIT 3 is 210 HIT: past the 200 a side Muster walks. The same units
    # with A cut to 66 models (198 HIT) and B's 30 as they were are answered.
    page = client.get(
        url(
            "gem",
            a_profile=json.dumps(BIG),
            a_quantity=70,
            b_profile=json.dumps(BIG),
            b_quantity=30,
        )
    ).content.decode()

    assert 'data-testid="fight-refused"' in page
    assert "up to 200 HIT a side" in page
    link = re.search(r'href="([^"]*)" data-testid="fight-smaller"', page)
    assert link, "no link to the largest answered fight"
    query = parse_qs(urlsplit(html.unescape(link.group(1))).query)
    assert query["a_quantity"] == ["66"] and query["b_quantity"] == ["30"]
    assert json.loads(query["a_profile"][0]) == BIG
    smaller = client.get(html.unescape(link.group(1))).content.decode()
    assert 'data-testid="fight-result"' in smaller
    assert "Side A: 66 models of HIT 3" in smaller


def test_a_one_model_melee_shows_each_sides_losses(client):
    # OFF 4 v DEF 4 needs 11: each hits 1/2 a round. Both hit 1/4, one 1/4 each, none 1/4:
    # A wins 1/3, and only then keeps its one HIT: at most 0 lost 1/3, at most 1 certain.
    one = {**SINGLE, "hit": 1, "att": 1}
    page = client.get(
        url("gem", a_profile=json.dumps(one), b_profile=json.dumps(one))
    ).content.decode()

    assert losses(page, "a") == [["0", "33.3%"], ["1", "100.0%"]]
    assert losses(page, "b") == [["0", "33.3%"], ["1", "100.0%"]]
    assert "HIT lost, at most" in page and "Models lost, at most" not in page
    assert 'data-testid="double-precision"' not in page


def test_models_of_several_hit_lose_a_model_at_a_time(client):
    # One model of HIT 2 a side, each hitting 1/2 a round. Rounds where nobody hits
    # change nothing: A only, B only, both, a third each. From (2,2): (2,1), (1,2) or
    # (1,1). From (1,1) each way a third. From (2,1): A wins with 2 left (1/3), with 1
    # left (both hit, 1/3), or (1,1) (1/3). A keeps its model (at most 0 models, 1 HIT,
    # lost): 1/3 (2,1) x (2/3 + 1/9) + 1/3 (1,2) x 1/9 + 1/3 (1,1) x 1/3 = 11/27, 40.7%.
    two = {**SINGLE, "hit": 2, "att": 1}
    page = client.get(
        url("gem", a_profile=json.dumps(two), b_profile=json.dumps(two))
    ).content.decode()

    assert losses(page, "a") == [["0", "1", "40.7%"], ["1", "2", "100.0%"]]
    assert "Models lost, at most" in page
    # The model wounded (1 HIT of its 2) is not yet lost.
    assert "at most 0 models lost is at most 1 HIT lost" in page


def test_a_vsgmr_duel_shows_losses_of_its_one_figure(client):
    # The hero wins 3/5 hand to hand: then, and only then, it keeps its figure.
    page = client.get(
        url(a_profile=json.dumps(HERO), b_profile=json.dumps(TROOP), fight="hand-to-hand")
    ).content.decode()

    assert losses(page, "a") == [["0", "60.0%"], ["1", "100.0%"]]
    assert losses(page, "b") == [["0", "40.0%"], ["1", "100.0%"]]
    assert "Figures lost, at most" in page
    chart = re.search(r'<svg[^>]*aria-describedby="losses-chart-a-desc".*?</svg>', page, re.S)
    assert chart and "<desc" in chart.group(0) and chart.group(0).count("<rect") == 2


def test_the_vsgmr_quantity_box_says_a_duel_is_one_figure(client):
    page = client.get(url()).content.decode()
    gem_page = client.get(url("gem")).content.decode()

    said = "A duel is one figure against one: quantity is not used"
    for side in "ab":
        assert re.search(rf'id="id_{side}_quantity_helptext">{said}<', page)
        assert f'aria-describedby="id_{side}_quantity_helptext' in page
    assert said not in gem_page


def test_a_fight_nobody_can_win_says_why_in_its_headline(client):
    # Two VSGMR troops have no distance attack; d10 models with no weapon cannot shoot;
    # GEM models of ATT 0 make no attacks.
    shooting = client.get(
        url(a_profile=json.dumps(TROOP), b_profile=json.dumps(TROOP), fight="distance")
    ).content.decode()
    d10 = client.get(url("d10", a_profile="{}", b_profile="{}", fight="distance")).content.decode()
    idle = {**SINGLE, "att": 0}
    melee = client.get(
        url("gem", a_profile=json.dumps(idle), b_profile=json.dumps(idle))
    ).content.decode()
    fought = client.get(url(a_profile=json.dumps(TROOP), b_profile=json.dumps(TROOP)))

    def headline(page: str) -> str:
        found = re.search(r'data-testid="fight-headline">([^<]*)<', page)
        return html.unescape(found.group(1)) if found else ""

    assert headline(shooting).startswith("Neither can shoot: neither figure has a distance")
    assert headline(d10).startswith("Neither can shoot: neither model carries a weapon")
    assert headline(melee) == "Neither side can harm the other: a draw."
    assert percents(melee) == ["0.0%", "100.0%", "0.0%"]
    assert headline(fought.content.decode()) == ""


def test_ranks_deeper_show_in_the_working_as_a_player_says_them(client):
    page = client.get(
        url("gem", a_profile=json.dumps(SINGLE), b_profile=json.dumps(SINGLE), a_ranks=2)
    ).content.decode()

    assert "2 ranks deeper +4" in page
    assert "tick once a rank" not in page


def test_side_a_alone_asks_for_the_opponent_beside_side_b(client):
    page = client.get(url(a_name="Grim", a_profile=json.dumps(HERO))).content.decode()

    side_b = page.split('data-testid="side-b"')[1]
    assert 'data-testid="pick-opponent"' in side_b
    assert 'data-testid="pick-opponent"' not in page.split('data-testid="side-b"')[0]
    assert re.search(r'<input[^>]*name="b_share"[^>]*autofocus', side_b)
    assert page.count("autofocus") == 1
    assert 'data-testid="fight-result"' not in page
    for query in (
        {},
        {"b_profile": json.dumps(TROOP)},
        {"a_profile": json.dumps(HERO), "b_profile": json.dumps(TROOP)},
    ):
        other = client.get(url(**query)).content.decode()
        assert 'data-testid="pick-opponent"' not in other and "autofocus" not in other


def test_side_a_from_a_players_own_unit_takes_the_focus_to_their_units(player_client, player):
    army = ArmyFactory(owner=player, profiles=[HERO])

    page = player_client.get(url(a_unit=army.units.get().pk)).content.decode()

    side_b = page.split('data-testid="side-b"')[1]
    assert 'data-testid="pick-opponent"' in side_b
    assert re.search(r'<select[^>]*name="b_unit"[^>]*autofocus', side_b)


def test_systems_without_fight_odds_are_not_found(client):
    assert client.get(reverse("odds:fight", args=["goms"])).status_code == 404
    assert client.get(reverse("odds:fight", args=["warhammer"])).status_code == 404


def test_player_text_is_escaped(client):
    name = "<script>alert(1)</script>"
    page = client.get(url(a_profile=json.dumps(TROOP), a_name=name, b_profile=json.dumps(TROOP)))

    assert name not in page.content.decode()
    assert "&lt;script&gt;" in page.content.decode()


def _odds_link(page: str) -> str:
    found = re.search(r'href="([^"]*)" data-testid="odds-against"', page)
    assert found, "no Odds against… link"
    return html.unescape(found.group(1))


def test_builder_links_each_unit_to_its_odds_by_id(player_client, player):
    army = ArmyFactory(owner=player, profiles=[HERO])
    unit = army.units.get()

    link = _odds_link(player_client.get(army.get_absolute_url()).content.decode())

    assert link == f"/rules/vsgmr/fight/?a_unit={unit.pk}"
    opened = player_client.get(link).content.decode()
    assert re.search(rf'<option value="{unit.pk}" selected>', opened)


def _followed(client, page_url: str) -> str:
    """Where the page's "Odds against…" link leads: its address as the browser resolves
    it against the page's, then the calculator's address that one sends on to."""
    link = urljoin(page_url, _odds_link(client.get(page_url).content.decode()))
    response = client.get(link)
    assert response.status_code == 302, (link, response.status_code)
    return response["Location"]


def test_the_owners_roster_and_cards_link_each_unit_to_its_odds_by_id(player_client, player):
    army = ArmyFactory(owner=player, profiles=[HERO])
    unit = army.units.get()

    for sheet in ("roster", "cards"):
        link = _followed(player_client, f"/armies/{army.pk}/{sheet}/")
        assert link == f"/rules/vsgmr/fight/?a_unit={unit.pk}"
        opened = player_client.get(link).content.decode()
        assert re.search(rf'<option value="{unit.pk}" selected>', opened)


def test_share_page_roster_and_cards_link_by_the_profile_itself(client, player):
    army = ArmyFactory(owner=player, profiles=[HERO])
    token = services.share_army(army)

    for address in (f"/s/{token}/", f"/s/{token}/roster/", f"/s/{token}/cards/"):
        link = _followed(client, address)
        query = parse_qs(urlsplit(link).query)
        assert query["a_name"] == ["Unit 1"]
        assert json.loads(query["a_profile"][0]) == HERO
        filled = client.get(link + "&" + "b_profile=" + json.dumps(TROOP)).content.decode()
        assert percents(filled) == ["60.0%", "0.0%", "40.0%"]
    # The profile is in the calculator's address: it still works once sharing is off.
    services.unshare_army(army)
    assert percents(client.get(link + "&b_profile=" + json.dumps(TROOP)).content.decode())


def test_a_share_link_sends_on_only_its_own_armys_live_units(client, player):
    army = ArmyFactory(owner=player, profiles=[HERO, TROOP])
    token = services.share_army(army)
    elsewhere = ArmyFactory(owner=player, profiles=[HERO]).units.get()
    trashed = army.units.get(name="Unit 2")
    services.trash_unit(army, trashed.pk, None)
    goms = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    goms_token = services.share_army(goms)

    # The owner's other army's unit, a unit in the trash, and a system without fight odds.
    for address in (
        f"/s/{token}/units/{elsewhere.pk}/fight/",
        f"/s/{token}/units/{trashed.pk}/fight/",
        f"/s/{goms_token}/units/{goms.units.get().pk}/fight/",
    ):
        assert client.get(address).status_code == 404, address
    services.unshare_army(army)
    hero = army.units.get(name="Unit 1")
    assert client.get(f"/s/{token}/units/{hero.pk}/fight/").status_code == 404


def test_each_fight_system_rules_page_links_its_calculator(client):
    for system in ("vsgmr", "gem", "d10"):
        page = client.get(reverse("rules:system", args=[system])).content.decode()
        assert f'href="/rules/{system}/fight/"' in page
    assert "/fight/" not in client.get(reverse("rules:system", args=["goms"])).content.decode()


RIFLEMAN = json.dumps({"weapons": ["Carbine/AR"]})


def test_d10_asks_who_acts_first_and_is_even_unless_told(client):
    # By hand (tests/points/test_d10_fights.py): twins close in; the one acting first wins
    # 15/28 (53.6%), the other 13/28; each half the time: 1/2 each.
    even = client.get(url("d10", a_profile=RIFLEMAN, b_profile=RIFLEMAN)).content.decode()
    b_first = client.get(
        url("d10", a_profile=RIFLEMAN, b_profile=RIFLEMAN, first="b")
    ).content.decode()

    assert "Who acts first" in even
    assert re.search(r'value="either" id="[^"]*" checked>', even)
    assert percents(even) == ["50.0%", "0.0%", "50.0%"]
    assert "each side is the active model (acting first, winning ties) half the time" in even
    assert percents(b_first) == ["46.4%", "0.0%", "53.6%"]
    assert re.search(r'value="b" id="[^"]*" checked>', b_first)
    # The answer's link keeps the choice.
    link = re.search(r'href="([^"]*)" data-testid="fight-link"', b_first).group(1)
    assert parse_qs(urlsplit(html.unescape(link)).query)["first"] == ["b"]


def test_a_bad_who_acts_first_is_told_and_nothing_is_worked_out(client):
    page = client.get(
        url("d10", a_profile=RIFLEMAN, b_profile=RIFLEMAN, first="c")
    ).content.decode()

    assert "Select a valid choice" in page
    assert 'data-testid="fight-result"' not in page


def test_only_d10_asks_who_acts_first(client):
    for system in ("vsgmr", "gem"):
        assert "Who acts first" not in client.get(url(system)).content.decode()


def test_the_shotgun_shows_its_spray_and_names_what_is_left_out(client):
    shotgun = json.dumps({"weapons": ["Shotgun (pump, semi)"]})
    page = client.get(
        url("d10", a_name="Breacher", a_profile=shotgun, b_profile=RIFLEMAN, fight="distance")
    ).content.decode()
    left_out = html.unescape(page.split('data-testid="not-in-these-odds"')[1].split("</div>")[0])

    assert "against TN 8" in page
    assert "Breacher, Shotgun (pump, semi): Assault" in left_out
    assert "Side B, Carbine/AR: Auto (x)" in left_out
