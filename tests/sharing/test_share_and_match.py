"""Issue 19, item 5: sharing and matching without typing ids. Copies get told-apart
names, the share page shows what an opponent needs to read each unit, and the matchup
picks armies from a select (mine, or shared ones pasted once)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armies import services
from armies.models import Army
from tests.factories import ArmyFactory, UserFactory, sample_file
from tests.samples import sample_army

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    """What a reader sees: tags gone, spaces collapsed, none before a colon or comma."""
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r" ([:,])", r"\1", words)


def dwarves(owner) -> Army:
    return ArmyFactory(owner=owner, file=sample_file("dwarves"))


# ------------------------------------------------------------------ distinct names


def test_copies_of_an_army_get_numbered_names(player_client, player):
    first = dwarves(player)
    token = services.share_army(first)
    # A fork of my own shared army, an import of the same file, a sample copy.
    player_client.post(f"/s/{token}/fork/")
    dwarves(player)
    player_client.post("/armies/samples/dwarves/")
    names = sorted(Army.objects.filter(owner=player).values_list("name", flat=True))
    assert names == ["Dwarves", "Dwarves (2)", "Dwarves (3)", "Dwarves (4)"]


def test_a_copy_of_a_numbered_copy_counts_from_the_plain_name(player):
    dwarves(player)
    second = dwarves(player)
    assert second.name == "Dwarves (2)"
    again = ArmyFactory(owner=player, file=second.to_file())
    assert again.name == "Dwarves (3)"  # not "Dwarves (2) (2)"


def test_a_free_number_is_reused_and_other_players_armies_do_not_count(player):
    other = UserFactory()
    dwarves(other)
    assert dwarves(player).name == "Dwarves"  # someone else's Dwarves is no clash
    dwarves(player)
    third = dwarves(player)
    assert third.name == "Dwarves (3)"
    services.trash_army(third.owner, third.pk)
    assert dwarves(player).name == "Dwarves (3)"  # the trashed one left its number free


def test_a_copy_of_an_army_with_the_longest_name_still_fits(player):
    long_name = "x" * 200
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[], name=long_name)
    copy = ArmyFactory(owner=player, file=army.to_file())
    assert copy.name == "x" * 196 + " (2)"
    assert len(copy.name) == 200


# ------------------------------------------------------------------ share page units


def unit_rows(html: str) -> list[str]:
    return re.findall(r'<li class="card shared-unit.*?\n  </li>', html, re.S)


def test_share_page_shows_each_vsgmr_units_figure_traits_and_powers(client, player):
    hero = {
        "kind": "guy",
        "flavor": "hero",
        "commander": True,
        "distance_attack": True,
        "traits": ["tough", {"name": "Rune Lore", "cost": 1, "text": "Reads old stones."}],
        "super_powers": {"super-fight": "major"},
    }
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[hero])
    (row,) = unit_rows(client.get(f"/s/{services.share_army(army)}/").content.decode())
    shown = text(row)
    assert "Figure Hero guy · commander" in shown
    assert "Armour heavy (free: hero commander)" in shown
    assert "Distance attack yes" in shown
    assert "Unit 1 9 pts" in shown  # hero 2 + distance 1 + Tough 2 + Rune Lore 1 + major 3
    assert "Tough: +1 on armour" in shown
    assert "Rune Lore (homebrew): Reads old stones." in shown
    assert "Super-Fight (major) (super power): d10 for hand to hand attacks" in shown


def test_share_page_shows_a_gem_units_stat_line_and_weapons(client, player):
    archer = {
        "type": "skirmisher",
        "base": "25mm",
        "off": 3,
        "def": 3,
        "melee": [{"name": "Dagger", "off": 2}],
        "missile": [{"name": "Longbow", "off": 4, "range": 24, "fire": "every-other-turn"}],
    }
    army = ArmyFactory(owner=player, system="gem", profiles=[archer])
    (row,) = unit_rows(client.get(f"/s/{services.share_army(army)}/").content.decode())
    shown = text(row)
    assert "Type Skirmisher Base 25mm OFF 3 DEF 3 ATT 1 HIT 1" in shown
    assert "Dagger (melee): OFF 2, ATT 1" in shown
    assert "Longbow: OFF 4, ATT 1, range 24″, fires every other turn" in shown


def test_share_page_shows_d10_weapons_from_the_table_with_their_stats(client, player):
    squad = ArmyFactory(owner=player, file=sample_army("d10", "rifle-squad"))
    rows = unit_rows(client.get(f"/s/{services.share_army(squad)}/").content.decode())
    breacher = text(rows[4])
    assert "Breacher" in breacher
    assert "CQC 6" in breacher and "Defence 12" in breacher
    # The seed's table: shotgun 12/18 inches, 1 shot, 7 close and 3 far, pump and assault.
    assert "Shotgun (pump, semi): range 12/18″, RoF 1, damage 7/3, Pump, Assault" in breacher
    assert "Pistol (9mm): range 6/12″, RoF 2/1, damage 4" in breacher


@pytest.mark.parametrize("size", [1, 20])
def test_share_page_reads_a_constant_number_of_queries(client, player, size):
    army = ArmyFactory(owner=player, system="d10", profiles=[{"weapons": ["LMG"]}] * size)
    token = services.share_army(army)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(f"/s/{token}/").content.decode()
    assert len(unit_rows(html)) == size
    assert len(queries) <= 4, [q["sql"] for q in queries]


# ------------------------------------------------------------------ copy link, matchup


def test_the_builder_has_a_copy_button_for_the_share_link(player_client, player):
    army = dwarves(player)
    services.share_army(army)
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'id="share-link"' in html
    assert re.search(r'<button type="button"[^>]*data-copy="share-link"[^>]*>Copy link<', html)
    assert "/static/js/copy.js" in html


def options(html: str, select: str) -> list[str]:
    block = re.search(rf'<select[^>]*id="{select}".*?</select>', html, re.S)[0]
    return [text(o) for o in re.findall(r"<option.*?</option>", block, re.S)]


def test_the_matchup_select_lists_only_my_armies(player_client, player):
    dwarves(player)
    ArmyFactory(owner=player, system="gem", profiles=[], name="Border")
    ArmyFactory(owner=UserFactory(), system="gem", profiles=[], name="Not mine")
    html = player_client.get("/matchup/").content.decode()
    assert options(html, "a") == ["Choose an army…", "Border (GEM)", "Dwarves (VSGMR)"]
    assert options(html, "b") == options(html, "a")


def test_picking_two_of_my_armies_compares_them(player_client, player):
    a = dwarves(player)
    b = dwarves(player)
    html = player_client.get(f"/matchup/?a={a.pk}&b={b.pk}").content.decode()
    assert "<strong>Balanced</strong>" in html
    assert re.search(rf'<option value="{a.pk}" selected>Dwarves \(VSGMR\)', html)
    assert re.search(rf'<option value="{b.pk}" selected>Dwarves \(2\) \(VSGMR\)', html)


def test_a_pasted_link_wins_over_the_select_and_joins_it(player_client, player):
    mine = dwarves(player)
    theirs = ArmyFactory(owner=UserFactory(), file=sample_file("elves"))
    token = services.share_army(theirs)
    link = f"http://testserver/s/{token}/"
    html = player_client.get(f"/matchup/?a={mine.pk}&b={mine.pk}&b_link={link}").content.decode()
    assert 'data-testid="side-b"' in html and "Elves" in text(html)
    # The pasted army is now an option of both selects, picked in B's.
    assert "Elves (VSGMR, shared)" in options(html, "a")
    assert re.search(rf'<option value="{token}" selected>Elves \(VSGMR, shared\)', html)


def test_a_bad_pasted_link_is_refused_beside_the_link_box_keeping_what_was_typed(
    player_client, player
):
    mine = dwarves(player)
    html = player_client.get(f"/matchup/?a={mine.pk}&b_link=http://x/s/nothing-like-this/")
    html = html.content.decode()
    assert 'id="b-link-error"' in html and "No army of yours" in html
    assert 'value="http://x/s/nothing-like-this/"' in html
    assert 'id="b-error"' not in html


def test_someone_elses_army_id_in_the_select_is_refused_beside_the_select(player_client):
    private = ArmyFactory(owner=UserFactory(), system="vsgmr", profiles=[], name="Secret")
    html = player_client.get(f"/matchup/?a={private.pk}").content.decode()
    assert 'id="a-error"' in html and "Secret" not in html


def test_the_matchup_link_wraps_and_has_a_copy_button(client, player):
    a, b = dwarves(player), dwarves(player)
    ta, tb = services.share_army(a), services.share_army(b)
    html = client.get(f"/matchup/?a={ta}&b={tb}").content.decode()
    assert re.search(r'<a class="text-break[^"]*" id="matchup-link"', html)
    assert 'data-copy="matchup-link"' in html
