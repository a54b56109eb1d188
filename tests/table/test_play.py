"""Table mode: a game tracked on the server, tapped by its owner, watched by the opponent."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import Client

from armies import services
from armies.models import Army
from table.models import AcquisitionRecord, Game
from tests.factories import ArmyFactory, UserFactory
from tests.helpers import at_once

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

SWORDS = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4, "hit": 2}
TANK = {
    "type": "vehicle",
    "base": "huge",
    "def": 9,
    "hit": 3,
    "max_speed": 12,
    "vehicle_class": "tracked",
    "trr": 2,
    "hull_points": 4,
}


def play_url(army: Army, action: str = "") -> str:
    return f"/armies/{army.pk}/play/{action + '/' if action else ''}"


def start(client, army: Army) -> Game:
    client.post(play_url(army, "new"), {"version": "0"})
    return Game.objects.get(army=army, ended__isnull=True)


def tap(client, army: Army, key: str, step: int = 1, version=None, htmx=True):
    game = Game.objects.get(army=army, ended__isnull=True)
    data = {"version": game.version if version is None else version, "tap": f"{key}:{step}"}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(play_url(army, "tap"), data, headers=headers)


def shown(html: str, testid: str) -> str:
    return re.search(rf'data-testid="{testid}-value"[^>]*>([^<]*)<', html).group(1)


def values(html: str) -> list[int]:
    return [int(v) for v in re.findall(r'data-testid="play-value"[^>]*>(\d+)<', html)]


def unit_key(army: Army, n: int, counter: str) -> str:
    return f"{list(army.units.all())[n].pk}.{counter}"


def test_taps_are_kept_on_the_server_for_a_reload_and_a_second_device(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    start(player_client, army)
    key = unit_key(army, 0, "hits")
    assert [tap(player_client, army, key).status_code for _ in range(3)] == [200, 200, 422]
    tap(player_client, army, "vp.mine")
    tap(player_client, army, "turn")

    phone = Client()
    phone.force_login(player)
    html = phone.get(play_url(army)).content.decode()
    # One swordsman of HIT 2 has two HIT boxes: the third hit went past them, refused.
    assert shown(html, "vp-mine") == "1" and shown(html, "turn") == "2"
    assert values(html)[0] == 2
    assert html.count("play-box ticked") == 2


def test_hit_boxes_are_grouped_per_model_and_vehicles_carry_hull_and_handling(
    player_client, player
):
    army = ArmyFactory(owner=player, system="gem", profiles=[{**SWORDS, "siz": 3}, TANK])
    start(player_client, army)
    html = player_client.get(play_url(army)).content.decode()
    # 3 models (SIZ 3) of HIT 2: three groups of two boxes, out of 6.
    first = html.split('data-testid="play-card"')[1]
    assert first.count('class="play-model"') == 3 and first.count('<span class="play-box') == 6
    assert "HIT lost (2 a model)" in first and "/6<" in first and "OFF: 4 · DEF: 4" in first
    tank = html.split('data-testid="play-card"')[2]
    assert "Hull points lost (4 each)" in tank
    # TRR 2: the largest turn per move is 57° / 2 = 28.5°.
    assert "Largest turn per move" in tank and "28.5°" in tank


def test_a_stale_tap_is_refused_and_answers_with_the_game_as_it_stands(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    game = start(player_client, army)
    seen = game.version
    tap(player_client, army, "vp.theirs", version=seen)  # from the phone
    refused = tap(player_client, army, "vp.mine", version=seen)  # from a tab drawn before
    assert refused.status_code == 409
    html = refused.content.decode()
    assert "Changed on another device" in html
    assert shown(html, "vp-theirs") == "1" and shown(html, "vp-mine") == "0"
    assert f'value="{seen + 1}"' in html  # the next tap from this answer counts
    game.refresh_from_db()
    assert game.state == {"vp.theirs": 1} and game.version == seen + 1

    # Without JavaScript the refusal comes back as a message on the page.
    response = tap(player_client, army, "vp.mine", version=seen, htmx=False)
    assert response.status_code == 302
    page = player_client.get(play_url(army)).content.decode()
    assert "Changed on another device" in page


def test_a_tap_from_a_page_of_the_game_before_never_lands_on_the_new_one(player_client, player):
    # A tab still shows game 1 at version 1 when the phone ends it and starts game 2, which
    # counts from version 1 again: the tab's tap names the right version, the wrong game.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    first = start(player_client, army)
    tab = player_client.get(play_url(army)).content.decode()
    assert f'name="game" value="{first.pk}"' in tab  # what the tab's taps send
    player_client.post(play_url(army, "new"), {"version": first.version, "game": first.pk})
    second = Game.objects.get(army=army, ended__isnull=True)
    assert second.pk != first.pk and second.version == first.version

    data = {"version": first.version, "game": first.pk, "tap": "vp.mine:1"}
    for action in ("tap", "undo", "new"):
        refused = player_client.post(play_url(army, action), data, headers={"HX-Request": "true"})
        assert refused.status_code == 409
        assert "Changed on another device" in refused.content.decode()
    second.refresh_from_db()
    assert (second.state, second.version) == ({}, first.version)
    assert Game.objects.filter(army=army).count() == 2

    # The same tap sent from a page of game 2 counts.
    counted = player_client.post(
        play_url(army, "tap"), {**data, "game": second.pk}, headers={"HX-Request": "true"}
    )
    assert counted.status_code == 200
    second.refresh_from_db()
    assert second.state == {"vp.mine": 1}


def test_undo_walks_back_several_changes_and_no_further_than_its_limit(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    start(player_client, army)
    tap(player_client, army, "turn")
    tap(player_client, army, "vp.mine")
    tap(player_client, army, "vp.mine")
    game = Game.objects.get()
    player_client.post(play_url(army, "undo"), {"version": game.version})
    game.refresh_from_db()
    assert game.state == {"turn": 2, "vp.mine": 1}
    player_client.post(play_url(army, "undo"), {"version": game.version})
    player_client.post(play_url(army, "undo"), {"version": game.version + 1})
    game.refresh_from_db()
    assert game.state == {"turn": 1, "vp.mine": 0} and game.history == []
    response = player_client.post(
        play_url(army, "undo"), {"version": game.version}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422 and "Nothing to undo" in response.content.decode()

    for _ in range(60):
        tap(player_client, army, "vp.theirs")
    game.refresh_from_db()
    assert len(game.history) == 50  # the oldest ten changes can't be undone any more
    for _ in range(55):
        game.refresh_from_db()
        player_client.post(play_url(army, "undo"), {"version": game.version})
    game.refresh_from_db()
    assert game.state["vp.theirs"] == 10


def test_counters_out_of_range_are_refused_with_a_message(player_client, player):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    start(player_client, army)
    response = tap(player_client, army, "turn", -1)
    assert response.status_code == 422 and "past 1" in response.content.decode()
    response = tap(player_client, army, "vp.mine", -1)
    assert response.status_code == 422 and "past 0" in response.content.decode()
    assert tap(player_client, army, "no.such", 1).status_code == 422
    assert tap(player_client, army, "turn", 5).status_code == 422  # one step at a time
    assert Game.objects.get().state == {}


def test_the_share_play_page_is_read_only_and_follows_the_owners_taps(player_client, player):
    client = Client()  # the opponent: no account
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    token = services.share_army(army)
    url = f"/s/{token}/play/"
    assert "No game under way yet" in client.get(url).content.decode()
    game = start(player_client, army)
    html = client.get(url).content.decode()
    main = html.split('id="main"')[1].split("</main>")[0]  # the page, not the site's menu
    assert "<form" not in main and "<button" not in main and 'name="tap"' not in main
    assert f'data-poll="{url}"' in html  # static/js/play.js follows the game from there
    for verb in ("post", "put", "patch", "delete"):
        assert getattr(client, verb)(url).status_code == 405
        assert getattr(client, verb)(f"/s/{token}/play/games/1/").status_code == 405
    # A poll naming the game and version already shown swaps nothing...
    polled = client.get(url, {"at": f"{game.pk}.{game.version}"}, headers={"HX-Request": "true"})
    assert polled.status_code == 204
    tap(player_client, army, unit_key(army, 0, "hits"))
    tap(player_client, army, "vp.mine")
    # ...and after the owner's taps it brings the game as it is now.
    polled = client.get(url, {"at": f"{game.pk}.{game.version}"}, headers={"HX-Request": "true"})
    html = polled.content.decode()
    assert polled.status_code == 200 and values(html) == [1, 0]
    assert shown(html, "vp-mine") == "1" and f'"version": {game.version + 2}' in html
    assert polled["Referrer-Policy"] == "same-origin"

    services.unshare_army(army)
    assert client.get(url).status_code == 404


def test_only_the_owner_taps(client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    owner = Client()
    owner.force_login(player)
    game = start(owner, army)
    client.force_login(UserFactory())
    assert client.get(play_url(army)).status_code == 404
    data = {"version": game.version, "tap": "vp.mine:1"}
    assert client.post(play_url(army, "tap"), data).status_code == 404
    assert client.post(play_url(army, "undo"), {"version": game.version}).status_code == 404
    assert client.post(play_url(army, "new"), {"version": game.version}).status_code == 404
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(player)
    assert csrf.post(play_url(army, "tap"), data).status_code == 403
    game.refresh_from_db()
    assert game.state == {}


def test_a_new_game_starts_afresh_and_the_last_one_stays_readable(player_client, player):
    client = Client()
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    token = services.share_army(army)
    first = start(player_client, army)
    tap(player_client, army, "vp.mine")
    tap(player_client, army, "vp.mine")
    # A new game from a page drawn before the last tap is refused: nothing is lost.
    player_client.post(play_url(army, "new"), {"version": first.version})
    assert Game.objects.count() == 1
    first.refresh_from_db()
    player_client.post(play_url(army, "new"), {"version": first.version})
    assert Game.objects.count() == 2
    html = player_client.get(play_url(army)).content.decode()
    assert shown(html, "vp-mine") == "0" and "Game 2" in html
    assert 'data-testid="play-earlier"' in html
    old = player_client.get(play_url(army, "games/1")).content.decode()
    assert shown(old, "vp-mine") == "2" and 'name="tap"' not in old
    assert shown(client.get(f"/s/{token}/play/games/1/").content.decode(), "vp-mine") == "2"


def test_a_game_keeps_the_units_as_they_were_when_it_started(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    start(player_client, army)
    unit = army.units.get()
    services.save_unit(army, unit.pk, services.UnitSpec("Renamed", 4, unit.profile), None)
    html = player_client.get(play_url(army)).content.decode()
    assert "Unit 1" in html and "Renamed" not in html


def test_the_d10_force_breaks_exactly_at_half_its_force_points(player_client, player):
    # A leader (2 force points) and four models (1 each): 2 + 4 × 1 = 6 force points,
    # so the break point is 6 / 2 = 3. Two models down: 2 lost, 1 to go, holding.
    # A third model down: 3 lost = the break point, so the force breaks.
    leader = {"leader": True}
    army = ArmyFactory(owner=player, system="d10", profiles=[leader, {}, {}, {}, {}])
    start(player_client, army)
    tap(player_client, army, unit_key(army, 1, "down"))
    html = tap(player_client, army, unit_key(army, 2, "down")).content.decode()
    assert "2 of 6 force points downed or dead; the force breaks at 3" in html
    assert "Holding: 1 more force point downed" in html and "play-broken" not in html
    html = tap(player_client, army, unit_key(army, 3, "down")).content.decode()
    assert 'data-testid="play-broken"' in html and "The force has broken" in html
    assert 'value="3"' in html and 'max="6"' in html
    # Undoing the last casualty brings it back below the break point.
    game = Game.objects.get()
    html = player_client.post(
        play_url(army, "undo"), {"version": game.version}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Holding: 1 more" in html


def test_the_d10_leader_counts_two_force_points(player_client, player):
    # Leader (2) + three models = 5 points, break point 2.5: the leader alone (2) holds,
    # the leader and one model (3) break.
    army = ArmyFactory(owner=player, system="d10", profiles=[{"leader": True}, {}, {}, {}])
    start(player_client, army)
    html = tap(player_client, army, unit_key(army, 0, "down")).content.decode()
    assert "2 of 5 force points" in html and "breaks at 2.5" in html and "Holding: 0.5" in html
    html = tap(player_client, army, unit_key(army, 1, "down")).content.decode()
    assert "The force has broken" in html


def test_vsgmr_shows_when_the_commander_is_down(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="vsgmr",
        profiles=[
            {"kind": "guy", "flavor": "hero", "commander": True},
            {"kind": "guy", "flavor": "troop"},
        ],
    )
    start(player_client, army)
    html = player_client.get(play_url(army)).content.decode()
    assert "Commander: <strong>in the fight</strong>" in html
    html = tap(player_client, army, unit_key(army, 0, "down")).content.decode()
    assert 'Commander: <strong class="text-danger">down</strong>' in html


def _seed_for(faces: list[int]) -> int:
    # Searched with the random module alone, not the app: a seed whose first d6 are `faces`.
    for seed in range(100_000):
        r = random.Random(seed)
        if [r.randint(1, 6) for _ in faces] == faces:
            return seed
    raise AssertionError("no such seed")


def test_goms_sections_start_from_the_acquisition_roll(player_client, player):
    rifles = {"kind": "rifle-section", "men": 10, "morale": "veteran"}
    army = ArmyFactory(
        owner=player,
        system="goms",
        profiles=[rifles, {"kind": "vehicle", "vehicle_class": "heavy"}],
    )
    # Infantry rolling 1 loses 4 men and an LMG; a heavy vehicle rolling 1 doesn't show.
    seed = _seed_for([1, 1])
    AcquisitionRecord.objects.create(
        army=army,
        seed=seed,
        units=[["Unit 1", "infantry", 1], ["Unit 2", "heavy", 1]],
        rerolls=0,
        finished=True,
    )
    start(player_client, army)
    html = player_client.get(play_url(army)).content.decode()
    rifle, tank = html.split('data-testid="play-card"')[1:3]
    assert "Men at the start: 6 of 10 (the acquisition roll took 4)" in rifle
    assert "LMGs at the start: 0 of 1" in rifle and "Veteran (8)" in rifle
    assert "Present: 0 of 1" in tank
    assert values(html) == [0, 0, 0]
    assert "(6 men left)" in rifle


def test_table_mode_pages_make_a_constant_number_of_queries(
    player_client, player, django_assert_num_queries
):
    client = Client()
    for size in (1, 40):
        army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS] * size)
        token = services.share_army(army)
        game = start(player_client, army)
        # session, user, army, current game, earlier games
        with django_assert_num_queries(5):
            assert player_client.get(play_url(army)).status_code == 200
        # session, user, army, the game locked, saving it (and the savepoint pair)
        data, htmx = {"version": game.version, "tap": "vp.mine:1"}, {"HX-Request": "true"}
        with django_assert_num_queries(7):
            assert player_client.post(play_url(army, "tap"), data, headers=htmx).status_code == 200
        # army (with its owner), current game, earlier games
        with django_assert_num_queries(3):
            assert client.get(f"/s/{token}/play/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_devices_tapping_at_once_from_one_version_never_both_count(player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    phones = [Client(), Client()]
    for phone in phones:
        phone.force_login(player)
    game = start(phones[0], army)

    def post(phone, key):
        data = {"version": game.version, "tap": f"{key}:1"}
        htmx = {"HX-Request": "true"}
        return lambda: phone.post(play_url(army, "tap"), data, headers=htmx).status_code

    codes = sorted(at_once([post(phones[0], "vp.mine"), post(phones[1], "vp.theirs")]))
    assert codes == [200, 409]
    game.refresh_from_db()
    assert sum(game.state.values()) == 1 and game.version == 2 and len(game.history) == 1


def test_a_tap_answers_with_only_what_it_changed(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS] * 30)
    start(player_client, army)
    html = tap(player_client, army, unit_key(army, 4, "hits")).content.decode()
    # The 5th unit's card and the bar, swapped in by id; the other 29 cards are not sent.
    assert html.count('data-testid="play-card"') == 1 and 'id="card-wrap-' in html
    assert f'id="card-wrap-{list(army.units.all())[4].pk}" data-hx-swap-oob="true"' in html
    assert 'id="play-version" data-hx-swap-oob="true"' in html
    html = tap(player_client, army, "turn").content.decode()
    assert 'data-testid="play-card"' not in html and shown(html, "turn") == "2"


def test_cards_drawn_for_the_owner_never_reach_the_opponent(player_client, player):
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    token = services.share_army(army)
    start(player_client, army)
    card_button = f'value="{unit_key(army, 0, "hits")}:1"'
    # The owner's page is drawn first, at the same version the opponent then sees.
    assert card_button in player_client.get(play_url(army)).content.decode()
    html = Client().get(f"/s/{token}/play/").content.decode()
    main = html.split('id="main"')[1].split("</main>")[0]
    assert "<button" not in main and 'data-testid="play-card"' in main
    # And the other way round: drawn for the opponent first, the owner still gets buttons.
    tap(player_client, army, "turn")
    Client().get(f"/s/{token}/play/")
    assert card_button in player_client.get(play_url(army)).content.decode()


def play_cards(html: str) -> dict:
    found = re.search(r'<script id="play-cards" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1))


def test_a_d10_game_page_carries_what_the_phone_works_the_break_point_out_from(
    player_client, player
):
    # Offline, static/js/play.js works the break point out on the phone from this. A
    # leader counts 2 force points and each model 1: 2 + 4 × 1 = 6, breaking at half, 3.
    army = ArmyFactory(owner=player, system="d10", profiles=[{"leader": True}, {}, {}, {}, {}])
    start(player_client, army)
    morale = play_cards(player_client.get(play_url(army)).content.decode())["morale"]
    assert morale["force"] == "6" and morale["break"] == "3"
    keys = [unit_key(army, n, "down") for n in range(5)]
    assert morale["units"] == [[keys[0], 2], *[[k, 1] for k in keys[1:]]]


def test_the_owners_second_device_follows_the_game_only_when_it_changed(player_client, player):
    # The owner's table-mode page asks now and then (static/js/play.js) naming the game and
    # version it shows: nothing comes back while nothing changed.
    army = ArmyFactory(owner=player, system="gem", profiles=[SWORDS])
    game = start(player_client, army)
    at = {"at": f"{game.pk}.{game.version}"}
    htmx = {"HX-Request": "true"}
    assert player_client.get(play_url(army), at, headers=htmx).status_code == 204
    tap(player_client, army, unit_key(army, 0, "hits"))  # from the other device
    polled = player_client.get(play_url(army), at, headers=htmx)
    html = polled.content.decode()
    assert polled.status_code == 200 and values(html) == [1, 0]
    assert "<html" not in html  # the game's part, not a whole page
