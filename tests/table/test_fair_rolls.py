"""Fair acquisition rolls: the owner commits to a seed, the opponent adds one through the
share link, the dice come from both; anyone can re-derive them from what the page shows."""

from __future__ import annotations

import contextlib
import hashlib
import html as html_lib
import io
import random
import re

import pytest
from django.test import Client

from armies import services
from table.models import AcquisitionRecord
from tests.helpers import (
    at_once,
    goms_army,
    record_page,
    rename_units,
    roll_url,
    seed_url,
    start_fair,
)

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


def code(html: str, testid: str) -> str:
    return re.search(rf'data-testid="{testid}">([^<]*)<', html).group(1)


def shown_dice(html: str) -> list[int]:
    rows = html.split('data-testid="acquisition-die"')[1:]
    return [int(re.search(r"<strong>(\d)</strong>", row).group(1)) for row in rows]


def derive(owner: str, opponent: str, count: int, rerolled: list[int] = ()) -> list[int]:
    """The documented steps, written here with hashlib and random alone (not the app's code):
    seed random.Random with SHA-256("owner:opponent") read as an integer, one d6 per die
    in list order, then one per reroll in the order spent."""
    digest = hashlib.sha256(f"{owner}:{opponent}".encode()).hexdigest()
    r = random.Random(int(digest, 16))
    dice = [r.randint(1, 6) for _ in range(count)]
    for n in rerolled:
        dice[n - 1] = r.randint(1, 6)
    return dice


def test_a_fair_roll_re_derives_from_the_two_published_seeds(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    owner_page = player_client.get(roll_url(army)).content.decode()
    committed = code(owner_page, "acquisition-committed")
    assert 'data-testid="acquisition-waiting"' in owner_page and shown_dice(owner_page) == []
    assert f"/s/{army.share_token}/roll/{record.pk}/" in owner_page  # the link to send
    assert record.owner_seed not in owner_page  # the owner can't see their own seed yet

    opponent = Client()
    page = record_page(army, record)
    assert 'data-testid="opponent-seed-form"' in page and committed in page
    response = opponent.post(seed_url(army, record), {"seed": "dice-from-the-other-side"})
    assert response.status_code == 302

    html = record_page(army, record)
    owner_seed = code(html, "acquisition-owner-seed")
    assert code(html, "acquisition-opponent-seed") == "dice-from-the-other-side"
    assert hashlib.sha256(owner_seed.encode()).hexdigest() == committed
    assert 'data-testid="acquisition-hash-ok"' in html
    dice = shown_dice(html)
    assert dice == derive(owner_seed, "dice-from-the-other-side", 3)
    assert 'data-testid="opponent-seed-form"' not in html

    # The few lines of Python the page prints give the same dice when run.
    snippet = html_lib.unescape(re.search(r"<pre[^>]*><code>(.*?)</code></pre>", html, re.S)[1])
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(snippet, {})  # noqa: S102 - our own page's text, as a player would run it
    assert printed.getvalue().strip() == str(dice)


def test_each_page_of_a_waiting_fair_roll_says_where_the_opponents_seed_goes(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    roll_page = f"/s/{army.share_token}/roll/{record.pk}/"

    # The opponent on the roll's own page: the form is right there, above.
    on_it = record_page(army, record)
    assert "Add your seed in the form above" in on_it
    assert "own page" not in on_it
    # The owner opening the link themself is told it is for the opponent's device.
    own = player_client.get(roll_page).content.decode()
    assert "Your opponent adds their seed on this page, from their own device." in own
    assert "Add your seed in the form above" not in own
    # The share page links to the roll's page.
    shared = Client().get(f"/s/{army.share_token}/").content.decode()
    assert f'The opponent adds their seed on <a href="{roll_page}">this roll\'s page</a>' in shared


def test_rerolls_keep_working_and_hide_the_owners_seed_until_spent(player_client, player):
    army = goms_army(player, rerolls=1, shared=True)
    record = start_fair(player_client, army)
    Client().post(seed_url(army, record), {"seed": "abc123"})
    html = player_client.get(roll_url(army)).content.decode()
    first = shown_dice(html)
    record.refresh_from_db()
    # Dice are out, but a reroll still to come must not be foreseeable: seed hidden.
    assert len(first) == 3 and record.owner_seed not in html and not record.finished
    assert 'data-testid="acquisition-commitment"' in html
    with pytest.raises(AttributeError):
        code(record_page(army, record), "acquisition-owner-seed")

    player_client.post(roll_url(army, "reroll"), {"die": "2"})
    html = record_page(army, record)
    owner_seed = code(html, "acquisition-owner-seed")
    assert shown_dice(html) == derive(owner_seed, "abc123", 3, [2])
    assert shown_dice(html)[0::2] == first[0::2]  # dice 1 and 3 unchanged
    assert "for n in [2]:" in html


def test_an_opponents_seed_is_taken_once(player_client, player):
    army = goms_army(player, rerolls=1, shared=True)
    record = start_fair(player_client, army)
    opponent = Client()
    opponent.post(seed_url(army, record), {"seed": "first"})
    response = opponent.post(seed_url(army, record), {"seed": "second"}, follow=True)
    assert "already has the opponent" in response.content.decode()
    record.refresh_from_db()
    assert record.opponent_seed == "first"


def test_an_opponents_seed_after_the_owners_seed_is_shown_is_refused(player_client, player):
    army = goms_army(player, shared=True)
    waiting = start_fair(player_client, army)
    # The owner drops the waiting roll for another: the first one's seed is shown now.
    player_client.post(roll_url(army, "roll"), {"mode": "alone"})
    waiting.refresh_from_db()
    assert waiting.finished
    response = Client().post(seed_url(army, waiting), {"seed": "late"}, follow=True)
    assert "already shown" in response.content.decode()
    waiting.refresh_from_db()
    assert waiting.opponent_seed == "" and waiting.dice() == ()
    # A roll made alone takes no seed at all.
    alone = army.acquisitions.get(owner_seed="")
    response = Client().post(seed_url(army, alone), {"seed": "x"}, follow=True)
    assert "takes no seed" in response.content.decode()


def test_a_bad_seed_is_refused_with_a_message_and_csrf_is_checked(player_client, player):
    army = goms_army(player, shared=True)
    record = start_fair(player_client, army)
    response = Client().post(seed_url(army, record), {"seed": "not a seed!"}, follow=True)
    assert "1 to 64 letters" in response.content.decode()
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(seed_url(army, record), {"seed": "abc"}).status_code == 403
    for verb in ("post", "put", "patch", "delete"):
        assert getattr(Client(), verb)(f"/s/{army.share_token}/roll/").status_code == 405
    record.refresh_from_db()
    assert record.opponent_seed == "" and record.waiting


def test_a_fair_roll_needs_a_share_link(player_client, player):
    army = goms_army(player, shared=True)
    services.unshare_army(army)
    response = player_client.post(roll_url(army, "roll"), {"mode": "fair"}, follow=True)
    assert "Make a share link first" in response.content.decode()
    assert not AcquisitionRecord.objects.exists()


def test_a_roll_made_alone_is_marked_so_and_every_roll_is_listed_for_the_opponent(
    player_client, player
):
    army = goms_army(player, shared=True)
    player_client.post(roll_url(army, "roll"), {"mode": "alone"})
    for html in (
        player_client.get(roll_url(army)).content.decode(),
        Client().get(f"/s/{army.share_token}/").content.decode(),
        Client().get(f"/s/{army.share_token}/roster/").content.decode(),
    ):
        assert "rolled by the owner alone" in html.lower()
    # The owner changes the army and rolls twice more (one fair): all three stay listed.
    rename_units(army, {"Unit 2": "Unit 2"}, quantity=2)
    record = start_fair(player_client, army)
    Client().post(seed_url(army, record), {"seed": "opp"})
    rename_units(army, {"Unit 2": "Unit 2"}, quantity=1)
    player_client.post(roll_url(army, "roll"), {"mode": "alone"})
    shared = Client().get(f"/s/{army.share_token}/").content.decode()
    items = shared.split('data-testid="acquisition-roll-item"')[1:]
    assert len(items) == 3
    assert "rolled by the owner alone" in items[0] and "fair roll" in items[1]
    assert "rolled by the owner alone" in items[2]
    # Each listed roll opens with its dice.
    link = re.search(r'href="(/s/[^"]+/roll/\d+/)"', items[1])[1]
    assert len(shown_dice(Client().get(link).content.decode())) == 4


@pytest.mark.django_db(transaction=True)
def test_two_seeds_posted_at_once_only_one_is_taken(player):
    army = goms_army(player, rerolls=1, shared=True)
    owner = Client()
    owner.force_login(player)
    record = start_fair(owner, army)

    def post(seed):
        return lambda: Client().post(seed_url(army, record), {"seed": seed}, follow=True).content

    pages = at_once([post("one"), post("two")])
    assert sum(b"Your seed is in" in p for p in pages) == 1
    assert sum(b"already has the opponent" in p for p in pages) == 1
    record.refresh_from_db()
    assert record.opponent_seed in ("one", "two")


def test_done_makes_an_older_roll_final_but_not_a_fair_roll_without_dice(player_client, player):
    army = goms_army(player, rerolls=1, shared=True)
    # A roll recorded before fair rolls existed has no time of rolling.
    old = AcquisitionRecord.objects.create(
        army=army, seed=7, units=[["Unit 1", "infantry", 2], ["Unit 2", "medium", 1]], rerolls=1
    )
    player_client.post(roll_url(army, "finish"))
    old.refresh_from_db()
    assert old.finished
    rename_units(army, {"Unit 2": "Unit 2"}, quantity=2)  # the army changed: roll again
    waiting = start_fair(player_client, army)
    player_client.post(roll_url(army, "finish"))
    waiting.refresh_from_db()
    assert not waiting.finished and waiting.owner_seed not in record_page(army, waiting)
