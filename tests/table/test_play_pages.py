"""Issue 45, item 4: table mode of a large army is drawn a page of cards at a time (50), so
a 1,000-unit army is twenty pages of about 200 kB, not one page of 3.6 MB that took more
than a second of CPU for every new game."""

from __future__ import annotations

import re

import pytest

from armies import services
from table.models import Game
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

TROOP = {"kind": "guy", "flavor": "troop"}


def _cards(html: str) -> list[str]:
    return re.findall(r'<h2 class="h6 mb-1" id="card-\d+">([^<]*)<', html)


@pytest.fixture
def horde(player):
    army = ArmyFactory(owner=player, profiles=[TROOP] * 120, name="Horde")
    return army


def test_table_mode_draws_fifty_cards_a_page_with_links_to_the_others(player_client, horde):
    player_client.post(f"/armies/{horde.pk}/play/new/", {"version": "0"})

    first = player_client.get(f"/armies/{horde.pk}/play/").content.decode()
    second = player_client.get(f"/armies/{horde.pk}/play/cards/2/").content.decode()
    third = player_client.get(f"/armies/{horde.pk}/play/cards/3/").content.decode()

    assert _cards(first) == [f"Unit {i}" for i in range(1, 51)]
    assert _cards(second) == [f"Unit {i}" for i in range(51, 101)]
    assert _cards(third) == [f"Unit {i}" for i in range(101, 121)]
    assert "Cards 1–50 of 120" in first and "Cards 101–120 of 120" in third
    assert f'href="/armies/{horde.pk}/play/cards/2/" rel="next"' in first
    assert f'href="/armies/{horde.pk}/play/" rel="prev"' in second
    assert 'rel="next"' not in third
    # Each page follows the game at its own address, so a poll keeps its cards.
    assert f'data-poll="/armies/{horde.pk}/play/cards/2/"' in second


def test_a_tap_on_a_later_page_counts_and_a_refused_one_redraws_that_page(player_client, horde):
    player_client.post(f"/armies/{horde.pk}/play/new/", {"version": "0"})
    game = Game.objects.get(army=horde)
    unit = horde.units.get(name="Unit 70")

    answer = player_client.post(
        f"/armies/{horde.pk}/play/tap/",
        {"version": game.version, "tap": f"{unit.pk}.down:1", "page": "2"},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.state[f"{unit.pk}.down"] == 1

    stale = player_client.post(
        f"/armies/{horde.pk}/play/tap/",
        {"version": game.version - 1, "tap": f"{unit.pk}.down:1", "page": "2"},
        headers={"HX-Request": "true"},
    )
    assert stale.status_code == 409
    assert _cards(stale.content.decode())[0] == "Unit 51"


def test_the_opponent_and_an_earlier_game_are_paged_too(client, player, horde):
    token = services.share_army(horde)
    client.force_login(player)
    client.post(f"/armies/{horde.pk}/play/new/", {"version": "0"})
    game = Game.objects.get(army=horde)
    client.post(f"/armies/{horde.pk}/play/new/", {"version": game.version, "game": game.pk})

    watcher = client.__class__()
    watcher.force_login(UserFactory())
    shared = watcher.get(f"/s/{token}/play/cards/3/").content.decode()
    assert _cards(shared) == [f"Unit {i}" for i in range(101, 121)]
    assert f'href="/s/{token}/play/cards/2/" rel="prev"' in shared

    earlier = client.get(f"/armies/{horde.pk}/play/games/1/", {"cards": "2"}).content.decode()
    assert _cards(earlier)[0] == "Unit 51"
    assert f'href="/armies/{horde.pk}/play/games/1/?cards=3" rel="next"' in earlier


def test_a_small_army_has_one_page_and_no_links(player_client, player):
    army = ArmyFactory(owner=player, profiles=[TROOP] * 3)
    player_client.post(f"/armies/{army.pk}/play/new/", {"version": "0"})

    html = player_client.get(f"/armies/{army.pk}/play/").content.decode()

    assert len(_cards(html)) == 3 and 'data-testid="play-pages"' not in html
