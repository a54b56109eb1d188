"""The builder through the Django client: pages, htmx partials, and query counts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from armies.models import Army
from tests.factories import ArmyFactory, sample_file
from tests.helpers import HX, as_page, editor_post
from tests.samples import PRINTED, VSGMR_SAMPLES

pytestmark = pytest.mark.django_db


# One valid unit per system and what it costs, worked out by hand from SPEC section 3.
UNIT_PER_SYSTEM = {
    # Swordsman, SPEC 3.2 worked example: 6.5 points.
    "gem": ({"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}, "6.5"),
    # Hero (2) + distance attack (1) + light armour (1) = 4.
    "vsgmr": ({"kind": "guy", "flavor": "hero", "distance_attack": True, "armor": "light"}, "4"),
    # Every G.O.M.S. unit costs 1 point.
    "goms": ({"kind": "rifle-section"}, "1"),
    # A leader is worth 2 force points.
    "d10": ({"leader": True}, "2"),
}


@pytest.mark.parametrize("system", sorted(UNIT_PER_SYSTEM))
def test_builder_page_shows_each_units_cost_and_the_total(player_client, player, system):
    profile, cost = UNIT_PER_SYSTEM[system]
    army = ArmyFactory(owner=player, system=system, profiles=[profile, profile])
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    unit = "pt" if cost == "1" else "pts"  # "1 pt", "4 pts"
    assert html.count(f"{cost} {unit}<") == 2
    total = str(2 * float(cost)).removesuffix(".0")
    assert f'data-testid="army-total">{total}<' in html


@pytest.mark.parametrize("system", sorted(UNIT_PER_SYSTEM))
def test_editor_opens_as_an_htmx_partial_with_the_systems_fields(player_client, player, system):
    profile, _ = UNIT_PER_SYSTEM[system]
    army = ArmyFactory(owner=player, system=system, profiles=[profile])
    unit = army.units.get()
    response = player_client.get(
        f"/armies/{army.pk}/?unit={unit.pk}", headers={**HX, "HX-Target": "editor"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="editor"')
    assert "<html" not in html
    first_field = {"gem": 'name="off"', "vsgmr": 'name="flavor"', "goms": 'name="men"'}
    assert first_field.get(system, 'name="combat_skill"') in html


def test_typing_a_stat_reprices_the_unit_and_the_total_through_htmx(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}],
    )
    unit = army.units.get()
    # Off 4, def 4: the Swordsman of SPEC 3.2, 6.5 points; two of them cost 13.
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(
            player_client, unit, {"name": "Swordsmen", "quantity": "2", "off": "4", "def": "4"}
        ),
        headers=HX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="army-summary"' in html and 'data-hx-swap-oob="true"' in html
    assert 'data-testid="army-total">13<' in html
    assert 'data-testid="editor-each">6.5<' in html
    unit.refresh_from_db()
    assert unit.profile == {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    assert (unit.name, unit.quantity) == ("Swordsmen", 2)


def test_a_dice_expression_is_accepted_and_kept_as_typed(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}],
    )
    unit = army.units.get()
    player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(
            player_client, unit, {"name": "Brute", "type": "block", "base": "20mm", "off": "d6+1"}
        ),
        headers=HX,
    )
    unit.refresh_from_db()
    assert unit.profile["off"] == "d6+1"


def test_bad_stats_are_refused_beside_their_fields_and_nothing_is_saved(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}],
    )
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(
            player_client,
            unit,
            {
                "name": "Broken",
                "off": "11",
                "def": "2d",
                "missile-0-off": "4",
                "missile-0-range": "0",
            },
        ),
        headers=HX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    off_feedback = html.split('id="fb-off"')[1].split("</div>")[0]
    assert 'data-hx-swap-oob="true">must be between 1 and 10' in off_feedback
    assert 'id="fb-def"' in html and "dice" in html.split('id="fb-def"')[1].split("</div>")[0]
    assert "must be greater than 0" in html.split('id="fb-missile-0-range"')[1].split("</div>")[0]
    assert 'data-testid="not-saved"' in html
    unit.refresh_from_db()
    assert unit.name == "Unit 1" and unit.profile["off"] == 3


def test_without_javascript_a_bad_save_comes_back_with_the_typed_values(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 3, "def": 3}],
    )
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "Typed name", "off": "12"}),
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'value="Typed name"' in html and 'value="12"' in html
    assert "must be between 1 and 10" in html


def test_without_javascript_a_good_save_redirects_back_to_the_editor(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(
            player_client,
            unit,
            {"name": "Thane", "flavor": "hero", "commander": "on", "traits": ["tough"]},
        ),
    )
    assert response.status_code == 302
    assert response.url == f"/armies/{army.pk}/?unit={unit.pk}#editor"
    unit.refresh_from_db()
    assert unit.profile == {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]}


def test_rule_errors_sit_beside_the_unit_that_causes_them(player_client, player):
    # A mook cannot command (SPEC 3.3 bad-commander); the other unit is fine.
    army = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[
            {"kind": "guy", "flavor": "troop"},
            {"kind": "guy", "flavor": "mook", "commander": True},
        ],
    )
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    first, second = html.split('data-testid="unit-row"')[1:3]
    assert "Error:" not in first
    assert "Error:" in second
    assert 'data-testid="legality">not legal' in html


def _feedback(html: str, field: str) -> str:
    """The message box beside one editor field."""
    return html.split(f'id="fb-{field}"')[1].split("</div>")[0]


@pytest.mark.parametrize(
    ("system", "profile", "posted", "field", "message"),
    [
        # A GEM figure has no max speed: "abc" there used to show "Saved." and vanish.
        (
            "gem",
            {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3},
            {"type": "skirmisher", "base": "25mm", "off": "3", "def": "3", "max_speed": "abc"},
            "max_speed",
            "only vehicles have this",
        ),
        (
            "gem",
            {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3},
            {"type": "skirmisher", "base": "25mm", "off": "3", "def": "3", "capacity": "4"},
            "capacity",
            "only vehicles have this",
        ),
        # A G.O.M.S. vehicle has no morale: it used to be dropped without a word.
        (
            "goms",
            {"kind": "vehicle", "vehicle_class": "light"},
            {"kind": "vehicle", "vehicle_class": "light", "morale": "veteran"},
            "morale",
            "vehicles have no morale",
        ),
        (
            "goms",
            {"kind": "vehicle", "vehicle_class": "light"},
            {"kind": "vehicle", "vehicle_class": "light", "men": "8"},
            "men",
            "vehicles have no men",
        ),
        (
            "vsgmr",
            {"kind": "cavalry"},
            {"kind": "cavalry", "flavor": "hero"},
            "flavor",
            "only guys have a flavor",
        ),
    ],
)
def test_a_field_the_units_kind_cannot_have_is_refused_beside_it(
    player_client, player, system, profile, posted, field, message
):
    army = ArmyFactory(owner=player, system=system, profiles=[profile])
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        {"version": army.version, "name": "Unit 1", "quantity": "1", **posted},
        headers=HX,
    )
    html = response.content.decode()
    assert message in _feedback(html, field)
    assert 'data-testid="not-saved"' in html and "Saved." not in html
    unit.refresh_from_db()
    assert unit.profile == profile


def test_a_cavalry_unit_opens_with_no_flavour_and_saves_unchanged(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "cavalry", "large": True}])
    unit = army.units.get()
    html = player_client.get(f"/armies/{army.pk}/?unit={unit.pk}", headers=HX).content.decode()
    # Only guys have a flavour: a cavalry unit's editor has no such field; "Large" is its own.
    assert 'name="flavor"' not in html and 'name="large"' in html
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        {"version": army.version, "name": "Riders", "quantity": "1", "kind": "cavalry"}
        | {"large": "on", "shown_for": "cavalry"},
        headers=HX,
    )
    assert "Saved." in response.content.decode()
    unit.refresh_from_db()
    assert (unit.name, unit.profile) == ("Riders", {"kind": "cavalry", "large": True})


def test_add_duplicate_move_and_delete_units(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[{"kind": "guy", "flavor": "troop"}, {"kind": "guy", "flavor": "hero"}],
    )
    first, second = army.units.all()
    move = as_page(army, {"direction": "up"})
    player_client.post(f"/armies/{army.pk}/units/{second.pk}/move/", move, headers=HX)
    assert [u.pk for u in army.units.all()] == [second.pk, first.pk]
    response = player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/duplicate/", as_page(army), headers=HX
    )
    assert 'id="unit-list"' in response.content.decode()
    assert [u.name for u in army.units.all()] == ["Unit 2", "Unit 1", "Unit 1 (copy)"]
    player_client.post(f"/armies/{army.pk}/units/{second.pk}/delete/", as_page(army), headers=HX)
    assert [u.name for u in army.units.all()] == ["Unit 1", "Unit 1 (copy)"]
    response = player_client.post(f"/armies/{army.pk}/units/add/", as_page(army))
    added = army.units.last()
    assert response.url == f"/armies/{army.pk}/?unit={added.pk}#editor"
    assert added.profile == {"kind": "guy", "flavor": "troop"}


def test_anonymous_visitors_are_sent_to_log_in(client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[])
    response = client.get(f"/armies/{army.pk}/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_army_settings_change_name_and_limit_and_reprice(player_client, player):
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "hero"}], points_limit=10
    )
    response = player_client.post(
        f"/armies/{army.pk}/settings/",
        {"version": army.version, "name": "Renamed", "points_limit": "1", "preset": ""},
        headers=HX,
    )
    html = response.content.decode()
    assert "Renamed" in html and "over-limit" in html
    army.refresh_from_db()
    assert army.name == "Renamed" and army.points_limit == 1


def test_a_goms_game_size_preset_sets_the_limit(player_client, player):
    army = ArmyFactory(owner=player, system="goms", profiles=[{"kind": "rifle-section"}])
    player_client.post(
        f"/armies/{army.pk}/settings/",
        {
            "version": army.version,
            "name": "Platoon",
            "points_limit": "",
            "preset": "medium",
            "rerolls": "2",
        },
    )
    army.refresh_from_db()
    # Medium game: 12 points (SPEC 3.4); the rerolls are army purchases at 1 point each.
    assert army.points_limit == 12 and army.options == {"rerolls": 2}
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert 'data-testid="army-total">3<' in html


@pytest.mark.parametrize("size", [1, 200])
def test_builder_page_and_reprice_partial_use_constant_queries(
    player_client, player, size, django_assert_num_queries
):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}] * size,
    )
    unit = army.units.first()
    # session, user, army, the unit in the editor, each unit's stored row, the player's
    # library
    with django_assert_num_queries(6):
        assert player_client.get(f"/armies/{army.pk}/?unit={unit.pk}").status_code == 200

    def save(quantity: int, queries: int) -> None:
        data = as_page(army) | {
            "name": "Swordsmen",
            "quantity": str(quantity),
            "type": "skirmisher",
            "base": "25mm",
            "off": "4",
            "def": "4",
        }
        with django_assert_num_queries(queries):
            response = player_client.post(f"/armies/{army.pk}/units/{unit.pk}/", data, headers=HX)
        assert response.status_code == 200
        # 6.5 × (size - 1 + quantity): every Swordsman costs 6.5.
        total = 6.5 * (size - 1 + quantity)
        assert f'data-testid="army-total">{total:g}<' in response.content.decode()

    # session, user, the unit with its army, the units' state for the army's checks; then
    # in one transaction (a savepoint inside the test's): the army written if still at the
    # version posted (which locks it), the unit written (its drawn parts left blank for the
    # next page). Whatever the army's size: the other units are neither priced nor drawn.
    save(2, 8)
    save(3, 8)
    # session, user, the armies' count and a page of them, stored totals included, their
    # tags and the tags to filter by; and storing the army's row, drawn again after the saves
    with django_assert_num_queries(7):
        player_client.get("/armies/")


@pytest.mark.parametrize("edit", ["save", "add"])
def test_editing_a_unit_moves_the_army_to_the_top_of_the_list(player_client, player, edit):
    troop = {"kind": "guy", "flavor": "troop"}
    older = ArmyFactory(owner=player, system="vsgmr", profiles=[troop], name="Older")
    newer = ArmyFactory(owner=player, system="vsgmr", profiles=[troop], name="Newer")
    week_ago = timezone.now() - timedelta(days=7)
    Army.objects.filter(pk=older.pk).update(updated=week_ago)
    Army.objects.filter(pk=newer.pk).update(updated=week_ago + timedelta(days=1))
    unit = older.units.get()
    if edit == "save":
        data = editor_post(player_client, unit, {"name": "Renamed"})
        response = player_client.post(f"/armies/{older.pk}/units/{unit.pk}/", data, headers=HX)
        assert response.status_code == 200
    else:
        player_client.post(f"/armies/{older.pk}/units/add/", as_page(older))
    older.refresh_from_db()
    assert older.updated > week_ago + timedelta(days=1)
    listing = player_client.get("/armies/").content.decode()
    assert listing.index("Older") < listing.index("Newer")


def test_adding_or_copying_a_unit_counts_the_units_and_finds_the_last_in_one_query(
    player_client, player, django_assert_num_queries
):
    troop = {"kind": "guy", "flavor": "troop"}
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[troop] * 3)
    unit = army.units.first()
    data = as_page(army)
    # session, user, army; then in one transaction (a savepoint and its release inside
    # the test's): the army locked, the units' count and last position, the new unit, the
    # units' state read for the army's checks, the army written (the new unit is drawn by
    # the page that shows it)
    with django_assert_num_queries(10):
        response = player_client.post(f"/armies/{army.pk}/units/add/", data)
    added = army.units.order_by("position").last()
    assert response.url == f"/armies/{army.pk}/?unit={added.pk}#editor" and added.position == 4
    data = as_page(army)
    # the same, after the unit copied is read; then the summary's units with errors (the
    # army has no commander, so it is not legal and the summary names them), each unit's
    # stored row, the new unit (its row blank: drawn for this answer), and once the answer
    # is sent, its row stored under the army's lock (a savepoint, the army, the row, the
    # savepoint released)
    with django_assert_num_queries(18):
        response = player_client.post(
            f"/armies/{army.pk}/units/{unit.pk}/duplicate/", data, headers=HX
        )
    assert response.status_code == 200
    assert army.units.order_by("position").last().position == 5


def test_a_d10_unit_with_many_weapons_can_be_saved_from_the_editor(player_client, player):
    # 278 characters once joined: each name is well within the engine's limit, and so
    # is their number, so the editor's one box must take them all.
    weapons = [f"Heavy plasma cannon mark {i}" for i in range(10)]
    army = ArmyFactory(owner=player, system="d10", profiles=[{"weapons": weapons}])
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "Gunners"}),
        headers=HX,
    )
    assert response.status_code == 200
    unit.refresh_from_db()
    assert unit.name == "Gunners" and unit.profile == {"weapons": weapons}


def test_export_then_import_gives_back_the_same_army(player_client, player):
    doc = sample_file("dwarves")
    response = player_client.post("/armies/import/", {"text": __import__("json").dumps(doc)})
    army = Army.objects.get(owner=player)
    assert response.url == f"/armies/{army.pk}/"
    exported = player_client.get(f"/armies/{army.pk}/export.json").json()
    # The same army, and the rules version it was priced under (SPEC 4).
    assert exported == {**doc, "rules_version": "vsgmr/2026.1"}
    again = player_client.post("/armies/import/", {"text": __import__("json").dumps(exported)})
    copy = Army.objects.get(pk=int(again.url.strip("/").split("/")[-1]))
    # The same army again; beside the first in one account, its name is told apart.
    assert player_client.get(f"/armies/{copy.pk}/export.json").json() == {
        **exported,
        "name": "Dwarves (2)",
    }


def test_an_import_renamed_beside_a_same_named_army_says_so_and_why(player_client, player):
    doc = sample_file("dwarves")
    doc["name"] = "D" * 200  # as long as a name may be
    text = __import__("json").dumps(doc)
    first = player_client.post("/armies/import/", {"text": text}, follow=True)
    assert "already have an army" not in first.content.decode()

    again = player_client.post("/armies/import/", {"text": text}, follow=True)

    said = [str(m) for m in again.context["messages"]]
    # 196 D's and " (2)": the number takes 4 of the 200 characters a name may hold.
    assert Army.objects.filter(owner=player, name="D" * 196 + " (2)").exists()
    assert said[1] == (
        f"You already have an army named “{'D' * 200}”, so this one is named "
        f"“{'D' * 196} (2)”. Its name lost its last 4 characters to make room for the "
        "number: a name holds at most 200. Rename it in the army's settings if you like."
    )
    # A short name needs no shortening, and says only that it was numbered.
    doc["name"] = "Dwarves"
    for _ in range(2):
        response = player_client.post(
            "/armies/import/", {"text": __import__("json").dumps(doc)}, follow=True
        )
    said = [str(m) for m in response.context["messages"]]
    assert said[1] == (
        "You already have an army named “Dwarves”, so this one is named “Dwarves (2)”."
    )


def test_importing_a_file_the_price_command_rejects_shows_its_field_path_message(player_client):
    doc = sample_file("dwarves")
    doc["units"][2]["profile"]["traits"] = ["tuff"]
    response = player_client.post("/armies/import/", {"text": __import__("json").dumps(doc)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "units[2].profile.traits[0]" in html
    assert Army.objects.count() == 0


def test_a_unit_name_with_a_control_character_is_refused_and_the_army_still_prices(
    player_client, player
):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "Bad\tname"}),
        headers=HX,
    )
    assert "must be one line of printable text" in response.content.decode()
    unit.refresh_from_db()
    assert unit.name == "Unit 1"
    assert player_client.get(f"/armies/{army.pk}/").status_code == 200


def test_a_quantity_over_the_file_formats_limit_is_refused(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    unit = army.units.get()
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "Horde", "quantity": "5000"}),
        headers=HX,
    )
    feedback = response.content.decode().split('id="fb-quantity"')[1].split("</div>")[0]
    assert "Type at most 1000." in feedback
    unit.refresh_from_db()
    assert unit.quantity == 1


@pytest.mark.parametrize("slug", sorted(PRINTED))
def test_importing_each_vsgmr_sample_file_shows_its_printed_total(player_client, slug):
    name, total = PRINTED[slug][0], PRINTED[slug][1]
    upload = SimpleUploadedFile(f"{slug}.json", (VSGMR_SAMPLES / f"{slug}.json").read_bytes())
    response = player_client.post("/armies/import/", {"file": upload}, follow=True)
    html = response.content.decode()
    assert f">{name}</h1>" in html
    assert f'data-testid="army-total">{total}<' in html
    assert 'data-testid="legality">legal' in html


def test_a_full_army_refuses_more_units_by_every_route_and_says_so_on_the_page(
    player_client, player
):
    # One army of MAX_UNITS units for every route: drawing its 1000 rows is most of the
    # test's time, and none of the refusals changes the army.
    from armies.models import LibraryEntry
    from points.armyfile import MAX_UNITS

    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}] * MAX_UNITS
    )
    unit = army.units.first()
    entry = LibraryEntry.objects.create(
        owner=player,
        kind="figure",
        system="vsgmr",
        name="Extra",
        data={"kind": "guy", "flavor": "troop"},
    )
    player_client.post(f"/armies/{army.pk}/units/add/", as_page(army))
    player_client.post(f"/armies/{army.pk}/units/{unit.pk}/duplicate/", as_page(army))
    player_client.post(
        f"/armies/{army.pk}/units/add-from-library/", as_page(army, {"entry": entry.pk})
    )
    assert army.units.count() == MAX_UNITS
    html = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert f"An army can have at most {MAX_UNITS} units: delete one" in html

    # The duplicate button posts through htmx, whose reply is not shown as a page: the
    # browser is sent to the builder, which shows why nothing was added. (The page above
    # showed the earlier refusals' messages, so this one is the duplicate's own.)
    again = player_client.get(f"/armies/{army.pk}/").content.decode()
    assert "An army can have at most" not in again
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/duplicate/", as_page(army), headers=HX
    )
    assert response["HX-Redirect"] == f"/armies/{army.pk}/"
    html = player_client.get(response["HX-Redirect"]).content.decode()
    assert f"An army can have at most {MAX_UNITS} units: delete one" in html
    assert army.units.count() == MAX_UNITS


def test_army_settings_load_when_opened_and_open_inline_without_javascript(player_client, player):
    army = ArmyFactory(
        owner=player, system="goms", profiles=[{"kind": "rifle-section"}], name="Kompanie"
    )
    page = player_client.get(f"/armies/{army.pk}/").content.decode()
    # Closed by default, so the builder does not draw the form until it is opened.
    assert 'id="army-settings"' not in page
    assert f'data-hx-get="/armies/{army.pk}/settings/" data-hx-trigger="toggle once"' in page

    partial = player_client.get(f"/armies/{army.pk}/settings/", headers=HX).content.decode()
    assert partial.lstrip().startswith('<form id="army-settings"')
    assert 'value="Kompanie"' in partial and 'name="rerolls"' in partial
    assert f'name="version" value="{army.version}"' in partial

    # The no-JavaScript link: the whole builder, settings open and filled in.
    full = player_client.get(f"/armies/{army.pk}/settings/").content.decode()
    assert '<details class="card mt-3" id="settings-card" open>' in full
    assert 'id="army-settings"' in full and 'value="Kompanie"' in full
    assert 'id="unit-list"' in full


def test_undo_through_htmx_leaves_no_message_for_a_later_page(player_client, player):
    army = ArmyFactory(
        owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}] * 2
    )
    unit = army.units.first()
    player_client.post(f"/armies/{army.pk}/units/{unit.pk}/delete/", as_page(army), headers=HX)
    restored = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/restore/", as_page(army), headers=HX
    )
    assert restored.status_code == 200 and "Unit 1" in restored.content.decode()
    later = player_client.get("/armies/").content.decode()
    assert "Restored" not in later


def test_the_library_forms_stay_on_a_builder_page_that_comes_back_refused(player_client, player):
    from armies.models import LibraryEntry

    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}],
    )
    unit = army.units.get()
    LibraryEntry.objects.create(
        owner=player, kind="figure", system="gem", name="Bog troll", data={"type": "skirmisher"}
    )
    # Without JavaScript: an impossible OFF comes back as the whole page, status 400.
    response = player_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/",
        editor_post(player_client, unit, {"name": "X", "off": "14"}),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="library-figure"' in html and "Bog troll" in html


def test_two_editors_show_their_own_values_and_messages(player_client, player):
    # The editor's fields are built once and shared by every form: what one form was
    # given or refused must never show in another.
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[
            {"type": "skirmisher", "base": "25mm", "off": 3, "def": 3},
            {"type": "skirmisher", "base": "25mm", "off": 7, "def": 5},
        ],
    )
    first, second = army.units.order_by("position")
    refused = player_client.post(
        f"/armies/{army.pk}/units/{first.pk}/",
        editor_post(player_client, first, {"name": "Typed", "off": "12"}),
    )
    assert refused.status_code == 400 and 'value="12"' in refused.content.decode()

    html = player_client.get(f"/armies/{army.pk}/?unit={second.pk}").content.decode()
    editor = html.split('id="unit-form"')[1].split("</form>")[0]
    assert 'value="Unit 2"' in editor and 'value="7"' in editor and 'value="5"' in editor
    assert "Typed" not in editor and 'value="12"' not in editor
    assert "must be between 1 and 10" not in editor

    html = player_client.get(f"/armies/{army.pk}/?unit={first.pk}").content.decode()
    editor = html.split('id="unit-form"')[1].split("</form>")[0]
    assert 'value="Unit 1"' in editor and 'value="3"' in editor and 'value="7"' not in editor


def test_the_army_limit_is_stated_and_a_new_army_past_it_is_refused(
    player_client, player, monkeypatch
):
    from armies import services

    monkeypatch.setattr(services, "MAX_ARMIES", 2)
    ArmyFactory(owner=player, system="vsgmr", profiles=[], name="First")
    listing = player_client.get("/armies/").content.decode()
    assert "An account keeps up to" in listing
    data = {"name": "Second", "system": "vsgmr", "points_limit": "", "preset": ""}
    assert player_client.post("/armies/new/", data).status_code == 302
    response = player_client.post("/armies/new/", {**data, "name": "Third"}, follow=True)
    assert "An account can keep at most 2 armies" in response.content.decode()
    assert sorted(Army.objects.values_list("name", flat=True)) == ["First", "Second"]


def test_the_army_list_pages_through_many_armies(player_client, player, django_assert_num_queries):
    for i in range(55):
        ArmyFactory(owner=player, system="vsgmr", profiles=[], name=f"Army {i:02}")
    # Session, user, count, one page of armies, their tags, the tags to filter by; and
    # storing the rows it drew.
    with django_assert_num_queries(7):
        first = player_client.get("/armies/?sort=name").content.decode()
    assert first.count('data-testid="army-row"') == 50 and "Page 1 of 2" in first
    second = player_client.get("/armies/?sort=name&page=2").content.decode()
    assert second.count('data-testid="army-row"') == 5 and "Army 54" in second
