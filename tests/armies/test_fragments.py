"""Army pages remember their drawn parts per army version (armies/fragments.py).

Every test that changes an army first shows its pages, so what they draw is remembered,
then changes it the way the UI does and shows them again: the change must show. Costs
are VSGMR's (SPEC 3.3): a troop guy 1 point, a hero guy 2 (a hero commander's heavy
armour is free), a homebrew trait its own cost.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.template import Context, Template
from django.test import Client
from django.urls import get_script_prefix, set_script_prefix
from django.utils.html import escape

from armies import fragments
from armies.fragments import Memo
from armies.models import AcquisitionRecord, Army, LibraryEntry, Unit
from tests.armies.conftest import make_army
from tests.armies.test_acquisition import goms_army
from tests.armies.test_acquisition import url as acquisition_url
from tests.armies.test_builder import HX

TROOP = {"kind": "guy", "flavor": "troop"}  # 1 point
HERO = {"kind": "guy", "flavor": "hero"}  # 2 points
COMMANDER = HERO | {"commander": True}  # 2 points: the heavy armour comes free
SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}  # GEM, 6.5 (SPEC 3.2)

PAGES = ("builder", "shared", "roster", "shared roster")


def page_urls(army: Army) -> dict[str, str]:
    return {
        "builder": f"/armies/{army.pk}/",
        "shared": f"/s/{army.share_token}/",
        "roster": f"/armies/{army.pk}/roster/",
        "shared roster": f"/s/{army.share_token}/roster/",
    }


def get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def view_all(client, army: Army) -> dict[str, str]:
    return {page: get(client, url) for page, url in page_urls(army).items()}


def total(html: str) -> str:
    return re.search(r'data-testid="army-total">([^<]*)<', html).group(1)


def unit_names(html: str) -> list[str]:
    """The units in the order the page lists them: builder rows or roster cards."""
    found = re.findall(
        r'class="fw-semibold unit-name"[^>]*>([^<]*)<|<h2 id="unit-\d+">([^<]*)</h2>', html
    )
    return [unescape(row or card) for row, card in found]


def shown(client, army: Army) -> dict[str, tuple[str, list[str]]]:
    """Each page's total and units, in order."""
    return {page: (total(html), unit_names(html)) for page, html in view_all(client, army).items()}


def everywhere(points: str, names: list[str]) -> dict[str, tuple[str, list[str]]]:
    return dict.fromkeys(PAGES, (points, names))


def page_version(html: str) -> int:
    """The version the builder page's forms post back (builder.js reads it from here)."""
    return int(re.search(r'id="army-version" value="(\d+)"', html).group(1))


@pytest.fixture
def army(player):
    """Unit 1: a hero commander (2), Unit 2: a troop (1); shared, so all four pages open."""
    army = make_army(player, "vsgmr", [COMMANDER, TROOP])
    army.share()
    return army


@pytest.fixture
def seen(player_client, army):
    """The army's pages, shown once: from here on their parts are remembered."""
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    return army


# ---------------------------------------------------------------- a: every write shows


def test_a_unit_edited_through_htmx_shows_on_every_page(player_client, seen):
    army, (_, troop) = seen, seen.units.all()
    version = page_version(get(player_client, f"/armies/{army.pk}/"))
    response = player_client.post(
        f"/armies/{army.pk}/units/{troop.pk}/",
        {"version": version, "name": "Veterans", "quantity": "3", **TROOP},
        **HX,
    )
    assert response.status_code == 200
    # Commander 2 + three troops at 1.
    assert shown(player_client, army) == everywhere("5", ["Unit 1", "Veterans"])
    # The page now posts the new version, so the next edit from it is accepted.
    assert page_version(get(player_client, f"/armies/{army.pk}/")) == version + 1
    response = player_client.post(
        f"/armies/{army.pk}/units/{troop.pk}/",
        {"version": version + 1, "name": "Veterans", "quantity": "1", **HERO},
        **HX,
    )
    assert response.status_code == 200
    # Commander 2 + one hero 2.
    assert shown(player_client, army) == everywhere("4", ["Unit 1", "Veterans"])


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "form"])
def test_saved_settings_show_on_every_page(player_client, seen, htmx):
    army = seen
    version = page_version(get(player_client, f"/armies/{army.pk}/"))
    response = player_client.post(
        f"/armies/{army.pk}/settings/",
        {
            "version": version,
            "name": "Bridge guard",
            "preset": "",
            "points_limit": "2",
            "notes": "Hold the bridge.",
        },
        **(HX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 302)
    # Still 3 points, now over a limit of 2: one over, and not legal.
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    pages = view_all(player_client, army)
    assert 'data-testid="remaining">-1<' in pages["builder"]
    assert "/ 2 points" in pages["builder"] and "/ 2 points" in pages["shared"]
    assert 'data-testid="legality">not legal' in pages["builder"]
    assert 'data-testid="legality">not legal' in pages["shared"]
    for sheet in (pages["roster"], pages["shared roster"]):
        assert "<h1>Bridge guard</h1>" in sheet and "Hold the bridge." in sheet
        assert '<span class="sheet-limit">/ 2</span>' in sheet and "✗ Not legal" in sheet
    assert page_version(pages["builder"]) == version + 1


def test_an_added_unit_shows_on_every_page(player_client, seen):
    army = seen
    response = player_client.post(f"/armies/{army.pk}/units/add/")
    assert response.status_code == 302
    # A new unit is one troop: 1 more.
    assert shown(player_client, army) == everywhere("4", ["Unit 1", "Unit 2", "New unit"])


def test_a_duplicated_unit_shows_on_every_page(player_client, seen):
    army, (commander, _) = seen, seen.units.all()
    response = player_client.post(f"/armies/{army.pk}/units/{commander.pk}/duplicate/", **HX)
    assert response.status_code == 200
    # Another hero commander, 2 more (and now one commander too many).
    assert shown(player_client, army) == everywhere("5", ["Unit 1", "Unit 2", "Unit 1 (copy)"])
    html = get(player_client, f"/armies/{army.pk}/")
    assert "2 commanders" in html and 'data-testid="legality">not legal' in html


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "form"])
def test_moving_a_unit_up_and_down_shows_the_new_order_on_every_page(player_client, seen, htmx):
    army, (commander, troop) = seen, seen.units.all()
    headers = HX if htmx else {}
    player_client.post(f"/armies/{army.pk}/units/{troop.pk}/move/", {"direction": "up"}, **headers)
    assert shown(player_client, army) == everywhere("3", ["Unit 2", "Unit 1"])
    player_client.post(
        f"/armies/{army.pk}/units/{commander.pk}/move/", {"direction": "up"}, **headers
    )
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    player_client.post(
        f"/armies/{army.pk}/units/{commander.pk}/move/", {"direction": "down"}, **headers
    )
    assert shown(player_client, army) == everywhere("3", ["Unit 2", "Unit 1"])


def test_a_deleted_unit_and_its_undo_show_on_every_page(player_client, seen):
    army, (commander, _) = seen, seen.units.all()
    response = player_client.post(f"/armies/{army.pk}/units/{commander.pk}/delete/", **HX)
    assert response.status_code == 200
    # The troop alone: 1 point, and no commander.
    assert shown(player_client, army) == everywhere("1", ["Unit 2"])
    assert "The army has no commander" in get(player_client, f"/armies/{army.pk}/roster/")
    # Undo (the bar's button, through htmx).
    player_client.post(f"/armies/{army.pk}/units/{commander.pk}/restore/", **HX)
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    assert "no commander" not in get(player_client, f"/armies/{army.pk}/roster/")


def test_a_unit_restored_from_the_trash_page_shows_on_every_page(player_client, seen):
    army, (_, troop) = seen, seen.units.all()
    player_client.post(f"/armies/{army.pk}/units/{troop.pk}/delete/")
    assert shown(player_client, army) == everywhere("2", ["Unit 1"])
    trash = get(player_client, "/armies/trash/")
    restore = f"/armies/{army.pk}/units/{troop.pk}/restore/"
    assert f'action="{restore}"' in trash
    assert player_client.post(restore).status_code == 302
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])


def test_a_library_trait_added_to_a_unit_shows_on_every_page(player_client, player, seen):
    army, (_, troop) = seen, seen.units.all()
    entry = LibraryEntry.objects.create(
        owner=player,
        kind="trait",
        system="vsgmr",
        name="Bridge Warden",
        data={"cost": "1.5", "text": "Never yields the bridge."},
    )
    response = player_client.post(
        f"/armies/{army.pk}/units/{troop.pk}/add-part/", {"entry": entry.pk}
    )
    assert response.status_code == 302
    # The troop with the homebrew trait: 1 + 1.5 = 2.5, so 4.5 in all.
    assert shown(player_client, army) == everywhere("4.5", ["Unit 1", "Unit 2"])
    pages = view_all(player_client, army)
    assert "Bridge Warden" in pages["roster"] and "Bridge Warden" in pages["shared"]


def test_a_library_figure_added_to_the_army_shows_on_every_page(player_client, player, seen):
    army = seen
    entry = LibraryEntry.objects.create(
        owner=player, kind="figure", system="vsgmr", name="Champion", data=HERO
    )
    # The builder offers it once the player has one.
    assert f'<option value="{entry.pk}">Champion</option>' in get(
        player_client, f"/armies/{army.pk}/"
    )
    response = player_client.post(f"/armies/{army.pk}/units/add-from-library/", {"entry": entry.pk})
    assert response.status_code == 302
    # A hero: 2 more.
    assert shown(player_client, army) == everywhere("5", ["Unit 1", "Unit 2", "Champion"])


def test_a_unit_opened_in_the_editor_is_highlighted_and_then_not(player_client, seen):
    army, (commander, troop) = seen, seen.units.all()

    def highlighted(query: str) -> list[str]:
        html = get(player_client, f"/armies/{army.pk}/{query}")
        return re.findall(r'unit-row active-unit" id="unit-(\d+)"', html)

    assert highlighted(f"?unit={troop.pk}") == [str(troop.pk)]
    assert highlighted(f"?unit={commander.pk}") == [str(commander.pk)]
    assert highlighted("") == []


def summary_tag(html: str) -> str:
    return re.search(r'<section id="army-summary"[^>]*>', html).group(0)


def test_the_summary_sent_through_htmx_and_the_pages_summary_stay_apart(player_client, seen):
    army, (_, troop) = seen, seen.units.all()
    edit = f"/armies/{army.pk}/units/{troop.pk}/"
    version = page_version(get(player_client, f"/armies/{army.pk}/"))
    sent = player_client.post(
        edit, {"version": version, "name": "Veterans", "quantity": "3", **TROOP}, **HX
    ).content.decode()
    # Drawn first for htmx, to swap in out of band; Commander 2 + three troops at 1.
    assert 'hx-swap-oob="true"' in summary_tag(sent) and total(sent) == "5"
    page = get(player_client, f"/armies/{army.pk}/")
    assert "hx-swap-oob" not in summary_tag(page) and total(page) == "5"
    # A refused edit (no quantity of 0) sends the same version's summary: out of band.
    sent = player_client.post(
        edit, {"version": version + 1, "name": "Veterans", "quantity": "0", **TROOP}, **HX
    ).content.decode()
    assert 'hx-swap-oob="true"' in summary_tag(sent) and total(sent) == "5"


# ---------------------------------------------------------------- b: roll, share, link


def roll_line(html: str) -> str:
    return html.split('data-testid="roster-acquisition"')[1].split("</p>")[0]


def rolled_on_cards(html: str) -> list[str]:
    return [block.split("</p>")[0] for block in html.split('data-testid="roster-rolled"')[1:]]


def test_the_roster_shows_each_step_of_the_acquisition_roll(player_client, player):
    army = goms_army(player, rerolls=2)  # two rifle sections and a tank: three dice
    army.share()
    rosters = (f"/armies/{army.pk}/roster/", f"/s/{army.share_token}/roster/")
    for roster in rosters:
        html = get(player_client, roster)
        assert 'data-testid="roster-acquisition"' not in html
        assert not rolled_on_cards(html)

    player_client.post(acquisition_url(army, "roll"))
    record = AcquisitionRecord.objects.get()
    for roster in rosters:
        html = get(player_client, roster)
        line = roll_line(html)
        assert "2 rerolls not yet spent" in line and "(final)" not in line
        assert str(record.seed) not in html  # hidden while rerolls remain
        dice = record.dice()
        rifles, tank = rolled_on_cards(html)
        assert all(escape(f"{d.die}: {d.result}") in rifles for d in dice[:2])
        assert escape(f"{dice[2].die}: {dice[2].result}") in tank

    player_client.post(acquisition_url(army, "reroll"), {"die": "3"})
    record.refresh_from_db()
    assert record.picks == [2]
    dice = record.dice()
    for roster in rosters:
        html = get(player_client, roster)
        assert "1 reroll not yet spent" in roll_line(html)
        assert escape(f"{dice[2].die}: {dice[2].result}") in rolled_on_cards(html)[1]

    player_client.post(acquisition_url(army, "finish"))
    for roster in rosters:
        line = roll_line(get(player_client, roster))
        assert "(final)" in line and f"Seed {record.seed}, rerolls on dice 3." in line
        assert "not yet spent" not in line

    # Changing the army afterwards makes the roll stale: the sheet says so.
    player_client.post(f"/armies/{army.pk}/units/add/")
    for roster in rosters:
        html = get(player_client, roster)
        assert "stale" in roll_line(html) and not rolled_on_cards(html)


def test_the_roster_shows_the_share_link_while_sharing_is_on(player_client, player):
    army = make_army(player, "vsgmr", [COMMANDER])
    roster = f"/armies/{army.pk}/roster/"
    assert 'data-testid="share-qr"' not in get(player_client, roster)

    player_client.post(f"/armies/{army.pk}/share/")
    first = Army.objects.get(pk=army.pk).share_token
    html = get(player_client, roster)
    assert 'data-testid="share-qr"' in html and "<svg" in html
    assert f'<a href="http://testserver/s/{first}/">' in html

    player_client.post(f"/armies/{army.pk}/share/")  # a new link; the old one stops
    second = Army.objects.get(pk=army.pk).share_token
    assert second != first
    html = get(player_client, roster)
    assert f"/s/{second}/" in html and f"/s/{first}/" not in html
    assert f"/s/{second}/" in get(player_client, f"/s/{second}/roster/")

    player_client.post(f"/armies/{army.pk}/share/off/")
    html = get(player_client, roster)
    assert 'data-testid="share-qr"' not in html and "<svg" not in html
    assert "/s/" not in html


def test_the_owner_and_a_visitor_each_get_their_own_back_link(player_client, army):
    # The same army version's sheet, shown to the owner first: the visitor must not get
    # the owner's Back link (nor the owner the visitor's).
    visitor, shared_roster = Client(), f"/s/{army.share_token}/roster/"
    owner_back = f'href="/armies/{army.pk}/">Back</a>'
    shared_back = f'href="/s/{army.share_token}/">Back</a>'
    assert owner_back in get(player_client, shared_roster)
    assert shared_back in get(visitor, shared_roster)
    assert f"/armies/{army.pk}/" not in get(visitor, shared_roster)
    assert owner_back in get(player_client, shared_roster)


def test_the_shared_page_never_gets_the_owners_edit_controls(player_client, army):
    get(player_client, f"/armies/{army.pk}/")  # drawn for the owner first
    html = get(Client(), f"/s/{army.share_token}/")
    assert "unit-actions" not in html and "hx-post" not in html and 'id="army-version"' not in html
    assert unit_names(html) == ["Unit 1", "Unit 2"]


# ---------------------------------------------------------------- c: no units loaded


def test_a_repeat_view_of_an_unchanged_big_army_loads_no_units(
    client, player, django_assert_num_queries
):
    army = make_army(player, "gem", [SWORDSMAN] * 200)
    token = army.share()
    client.force_login(player)
    builder, roster = f"/armies/{army.pk}/", f"/armies/{army.pk}/roster/"
    # First view: session, user, army, the player's library, then the units (loaded
    # while the summary and unit rows are drawn).
    with django_assert_num_queries(5):
        first = get(client, builder)
    # Again: session, user, army, library; the units query is gone.
    with django_assert_num_queries(4):
        again = get(client, builder)
    # 200 Swordsmen at 6.5 each.
    assert total(first) == total(again) == "1300"
    assert len(unit_names(again)) == 200
    # The units were read for the first view of the builder: no page reads them again
    # while the version stands. The owner's roster: session, user, army.
    with django_assert_num_queries(3):
        get(client, roster)
    with django_assert_num_queries(3):
        assert total(get(client, roster)) == "1300"
    client.logout()
    # The shared roster: the army (with its owner) alone. Its sheet is the owner's one,
    # already drawn: the same army version, link and day.
    with django_assert_num_queries(1):
        shared = get(client, f"/s/{token}/roster/")
    assert total(shared) == "1300"
    assert len(unit_names(shared)) == 200
    # The shared page: the army alone, both times.
    with django_assert_num_queries(1):
        get(client, f"/s/{token}/")
    with django_assert_num_queries(1):
        assert total(get(client, f"/s/{token}/")) == "1300"


def test_after_a_change_the_next_view_loads_the_units_once_more(
    player_client, player, django_assert_num_queries
):
    army = make_army(player, "gem", [SWORDSMAN] * 3)
    get(player_client, f"/armies/{army.pk}/")
    player_client.post(f"/armies/{army.pk}/units/add/")  # a GEM skirmisher, OFF 3 DEF 3
    # session, user, army, library, units: the remembered parts are for the old version.
    with django_assert_num_queries(5):
        html = get(player_client, f"/armies/{army.pk}/")
    assert len(unit_names(html)) == 4


# ---------------------------------------------------------------- d: two armies


def test_an_army_with_the_id_and_version_of_a_deleted_one_shows_its_own_units(
    player_client, player
):
    first = make_army(player, "vsgmr", [COMMANDER], name="First")
    first.share()
    before = shown(player_client, first)
    assert before == everywhere("2", ["Unit 1"])
    pk, version = first.pk, first.version
    Army.all_objects.filter(pk=pk).delete()  # gone from the database, units and all

    # As after a database reset: the same id and version, other units.
    second = Army.objects.create(pk=pk, owner=player, name="Second", system="vsgmr")
    Unit.objects.create(army=second, name="Bowmen", quantity=3, profile=TROOP, position=1)
    second.share()
    assert (second.pk, second.version) == (pk, version) and second.created != first.created
    # Three troops: 3 points.
    assert shown(player_client, second) == everywhere("3", ["Bowmen"])
    assert "<h1>Second</h1>" in get(player_client, f"/armies/{pk}/roster/")


def test_two_armies_with_the_same_version_show_their_own_units(player_client, player):
    one = make_army(player, "vsgmr", [COMMANDER], name="One")
    two = make_army(player, "vsgmr", [COMMANDER, TROOP, TROOP], name="Two")
    one.share()
    two.share()
    assert one.version == two.version
    assert shown(player_client, one) == everywhere("2", ["Unit 1"])
    assert shown(player_client, two) == everywhere("4", ["Unit 1", "Unit 2", "Unit 3"])
    assert shown(player_client, one) == everywhere("2", ["Unit 1"])


# ---------------------------------------------------------------- e: the Memo


class Drawer:
    """draw() callables that count how often each key was drawn."""

    def __init__(self):
        self.drawn: list[str] = []

    def __call__(self, html: str):
        def draw() -> str:
            self.drawn.append(html)
            return html

        return draw


def test_the_memo_keeps_a_drawn_part_and_draws_it_once():
    memo, draw = Memo(), Drawer()
    assert memo.get_or_draw("k", draw("<p>one</p>")) == "<p>one</p>"
    assert memo.get_or_draw("k", draw("<p>other</p>")) == "<p>one</p>"
    assert draw.drawn == ["<p>one</p>"] and len(memo) == 1 and memo.size == len("<p>one</p>")


def test_the_memo_is_bounded_by_size_dropping_the_least_recently_used_first():
    memo, draw = Memo(max_size=10), Drawer()
    memo.get_or_draw("a", draw("aaaa"))
    memo.get_or_draw("b", draw("bbbb"))
    memo.get_or_draw("a", draw("aaaa"))  # used again: now the most recent
    memo.get_or_draw("c", draw("cccc"))  # 12 > 10: the least recently used (b) goes
    assert draw.drawn == ["aaaa", "bbbb", "cccc"]
    assert len(memo) == 2 and memo.size == 8
    memo.get_or_draw("a", draw("aaaa"))
    memo.get_or_draw("c", draw("cccc"))
    assert draw.drawn == ["aaaa", "bbbb", "cccc"]  # both kept
    memo.get_or_draw("b", draw("bbbb"))  # drawn again; a is now the oldest and goes
    assert draw.drawn == ["aaaa", "bbbb", "cccc", "bbbb"]
    assert memo.size <= 10
    memo.get_or_draw("c", draw("cccc"))
    memo.get_or_draw("a", draw("aaaa"))
    assert draw.drawn[-1] == "aaaa" and draw.drawn.count("cccc") == 1


def test_a_part_bigger_than_the_memo_is_shown_but_not_kept():
    memo, draw = Memo(max_size=10), Drawer()
    memo.get_or_draw("small", draw("ab"))
    assert memo.get_or_draw("big", draw("x" * 11)) == "x" * 11
    assert memo.size <= 10
    memo.get_or_draw("big", draw("x" * 11))
    assert draw.drawn.count("x" * 11) == 2


def test_the_memo_counts_an_entry_only_for_the_same_anchor_object():
    memo, draw = Memo(), Drawer()
    anchor, equal = ["unit"], ["unit"]
    assert memo.get_or_draw("k", draw("first"), anchor) == "first"
    assert memo.get_or_draw("k", draw("again"), anchor) == "first"
    # Equal but another object (what an id() in a key may come to mean): drawn again.
    assert memo.get_or_draw("k", draw("second"), equal) == "second"
    assert memo.get_or_draw("k", draw("third"), equal) == "second"
    assert draw.drawn == ["first", "second"]
    assert len(memo) == 1 and memo.size == len("second")


def test_the_memo_is_off_under_debug(settings):
    memo, draw = Memo(), Drawer()
    settings.DEBUG = True
    assert memo.get_or_draw("k", draw("one")) == "one"
    assert memo.get_or_draw("k", draw("two")) == "two"
    assert draw.drawn == ["one", "two"] and len(memo) == 0
    settings.DEBUG = False
    memo.get_or_draw("k", draw("three"))
    assert memo.get_or_draw("k", draw("four")) == "three"


def test_under_debug_pages_show_changes_made_behind_the_versions_back(
    settings, player_client, army
):
    # Under DEBUG (templates change under a running server) nothing is remembered: even
    # a change that does not move the version shows at once.
    settings.DEBUG = True
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    army.units.filter(name="Unit 2").update(name="Renamed", quantity=2)
    assert shown(player_client, army) == everywhere("4", ["Unit 1", "Renamed"])


def test_the_pages_share_one_process_wide_memo(player_client, army):
    # What the pages remember is in fragments.drawn: showing a new army adds to it.
    before = len(fragments.drawn)
    view_all(player_client, army)
    assert len(fragments.drawn) > before


# ---------------------------------------------------------------- f: failed save


def test_a_unit_save_that_fails_leaves_the_version_and_the_pages_as_they_were(player_client, seen):
    army, (_, troop) = seen, seen.units.all()
    version = page_version(get(player_client, f"/armies/{army.pk}/"))

    def failing_unit_write(execute, sql, params, many, context):
        # However the view writes the unit, the database refuses it.
        if sql.lstrip().upper().startswith("UPDATE") and "armies_unit" in sql:
            raise DatabaseError("disk I/O error")
        return execute(sql, params, many, context)

    player_client.raise_request_exception = False
    with connection.execute_wrapper(failing_unit_write):
        response = player_client.post(
            f"/armies/{army.pk}/units/{troop.pk}/",
            {"version": version, "name": "Veterans", "quantity": "3", **TROOP},
            **HX,
        )
    assert response.status_code == 500
    player_client.raise_request_exception = True

    # The version claim went with the failed save.
    assert Army.objects.get(pk=army.pk).version == version
    assert shown(player_client, army) == everywhere("3", ["Unit 1", "Unit 2"])
    assert page_version(get(player_client, f"/armies/{army.pk}/")) == version
    # So the same page's next save is accepted, not refused as from another tab.
    response = player_client.post(
        f"/armies/{army.pk}/units/{troop.pk}/",
        {"version": version, "name": "Veterans", "quantity": "3", **TROOP},
        **HX,
    )
    assert response.status_code == 200
    assert shown(player_client, army) == everywhere("5", ["Unit 1", "Veterans"])


def test_remembered_rows_follow_the_script_prefix(player_client, seen):
    # One process serving under two prefixes (the test client keeps the one set here).
    before = get_script_prefix()
    try:
        for prefix in ("/a/", "/b/"):
            set_script_prefix(prefix)
            html = get(player_client, f"/armies/{seen.pk}/")
            assert f'href="{prefix}armies/{seen.pk}/export.json"' in html  # not remembered
            assert f'formaction="{prefix}armies/{seen.pk}/units/' in html  # remembered rows
    finally:
        set_script_prefix(before)


# ---------------------------------------------------------------- g: parts set in as bytes

MARKER = re.compile(r"<!--[0-9a-f]{16}:\d+-->")


def test_a_page_shown_again_is_the_page_first_drawn(player_client, player):
    # The second view takes its remembered parts as bytes (fragments.Splice): every
    # character, non-ASCII too, comes back as drawn, and no marker is left behind.
    army = make_army(player, "gem", [SWORDSMAN, SWORDSMAN])
    army.units.filter(position=1).update(name="Ærø’s “Wolves” 🐺 <b>")
    army.share()
    for page, url in page_urls(army).items():
        first, again = get(player_client, url), get(player_client, url)
        assert not MARKER.search(again), page
        assert "Ærø’s “Wolves” 🐺 &lt;b&gt;" in again, page
        # The CSRF token and CSP nonce are per response; all else is the same page.
        assert _per_response(again) == _per_response(first), page


def _per_response(html: str) -> str:
    html = re.sub(r'nonce="[^"]*"', 'nonce=""', html)
    html = re.sub(r'"X-CSRFToken": "[^"]*"', "", html)  # htmx's headers, on <body>
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_parts_go_where_their_markers_are_and_nowhere_else():
    splice = fragments.Splice()
    first, second = splice.marker("“one”".encode()), splice.marker(b"two")
    typed = "<!--0123456789abcdef:0-->"  # what a marker looks like, with another token
    response = HttpResponse(f"a{second}b{first}c{typed}{first}")

    splice.into(response)

    assert response.content.decode() == f"atwob“one”c{typed}“one”"
    untouched = HttpResponse("no parts here")
    assert fragments.Splice().into(untouched).content == b"no parts here"


def test_a_part_inside_a_part_is_kept_as_drawn_not_as_one_pages_marker(player):
    # The outer part is kept as bytes; what it holds must not be a marker that only the
    # page it was first drawn for could fill in.
    army = make_army(player, "gem", [SWORDSMAN])
    page = Template(
        '{% load muster %}{% remember army "outer-test" %}['
        '{% remember army "inner-test" %}{{ army.name }}{% endremember %}]{% endremember %}'
    )
    for _ in range(2):
        splice = fragments.Splice()
        response = HttpResponse(page.render(Context({"army": army, "splice": splice})))
        assert splice.into(response).content.decode() == f"[{army.name}]"


def test_the_share_page_shows_each_step_of_the_roll_and_a_repeat_view_loads_no_units(
    player_client, player, django_assert_num_queries
):
    client = Client()  # a visitor with the link, not logged in
    army = goms_army(player, rerolls=2)
    army.share()
    page = f"/s/{army.share_token}/"
    assert 'data-testid="acquisition"' not in get(client, page)

    player_client.post(acquisition_url(army, "roll"))
    assert "Rerolls: 0 of 2 spent" in get(client, page)
    # Shown again unchanged: the army and its latest roll, no units, no pricing.
    with django_assert_num_queries(2):
        assert "Rerolls: 0 of 2 spent" in get(client, page)

    player_client.post(acquisition_url(army, "reroll"), {"die": "1"})
    assert "Rerolls: 1 of 2 spent" in get(client, page)
    player_client.post(acquisition_url(army, "finish"))
    html = get(client, page)
    assert 'data-testid="acquisition-final"' in html
    assert str(AcquisitionRecord.objects.get().seed) in html
    player_client.post(f"/armies/{army.pk}/units/add/")
    assert 'data-testid="acquisition-stale"' in get(client, page)


# ---------------------------------------------------------------- h: the builder's side column


def _form_tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html))


def test_each_view_of_a_remembered_side_column_carries_its_own_working_csrf_token(player, army):
    # The side column (editor, settings, sharing) is drawn once; its forms must still
    # post with the token of whoever views it, in two browsers of the same player.
    browsers = [Client(enforce_csrf_checks=True) for _ in range(2)]
    for browser in browsers:
        browser.force_login(player)
    pages = [get(b, f"/armies/{army.pk}/") for b in browsers for _ in range(2)]
    assert fragments.CSRF_STAND_IN not in "".join(pages)
    for html in pages:
        assert len(_form_tokens(html)) == 1 and "" not in _form_tokens(html)

    # The delete form sits in the side column: the second browser's remembered copy works.
    token = _form_tokens(pages[3]).pop()
    response = browsers[1].post(f"/armies/{army.pk}/delete/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert not Army.objects.filter(pk=army.pk).exists()


def test_the_side_column_follows_sharing_the_host_and_the_library(
    player_client, player, army, settings
):
    settings.ALLOWED_HOSTS = ["testserver", "other.example"]
    url = f"/armies/{army.pk}/"
    assert f"http://testserver/s/{army.share_token}/" in get(player_client, url)
    assert f"http://other.example/s/{army.share_token}/" in (
        player_client.get(url, HTTP_HOST="other.example").content.decode()
    )
    old = army.share_token
    player_client.post(f"/armies/{army.pk}/share/")  # a new link: the version stays
    army.refresh_from_db()
    html = get(player_client, url)
    assert army.share_token in html and old not in html

    # The editor offers the owner's library parts, which change without the army.
    unit = army.units.get(position=1)
    editor_url = f"{url}?unit={unit.pk}"
    assert "Copy from my library onto this unit" not in get(player_client, editor_url)
    LibraryEntry.objects.create(
        owner=player, kind="trait", system="vsgmr", name="Lucky", data={"cost": 1, "text": "x"}
    )
    assert "Lucky" in get(player_client, editor_url)


def test_a_refused_settings_save_without_javascript_shows_what_was_typed(player_client, army):
    # A page with typed values in it draws the side column afresh, never from memory.
    url = f"/armies/{army.pk}/"
    get(player_client, f"{url}settings/")  # the settings open, as stored, remembered
    response = player_client.post(
        f"{url}settings/", {"version": army.version, "name": "Typed", "points_limit": "-5"}
    )
    assert response.status_code == 400
    assert 'value="Typed"' in response.content.decode()
    assert 'value="Typed"' not in get(player_client, f"{url}settings/")
