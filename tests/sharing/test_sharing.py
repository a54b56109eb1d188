"""Share links are read-only and revocable; forks copy; matchups judge and suggest."""

from __future__ import annotations

import pytest
from django.test import Client

from armies import services
from armies.forms import preset_limit
from armies.models import Army
from tests.factories import ArmyFactory, UserFactory, sample_file

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


def test_share_link_opens_without_an_account_and_shows_no_edit_controls(client, player):
    army = ArmyFactory(owner=player, file=sample_file("dwarves"))
    token = services.share_army(army)
    assert len(token) >= 32  # 24 random bytes, base64: 192 bits
    response = client.get(f"/s/{token}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="army-total">28<' in html and 'data-testid="legality">legal' in html
    assert "Runepriest" in html and "Trait: Tough" in html  # roster and breakdowns
    for edit_url in ("/units/", "/settings/", "/delete/", "data-hx-post"):
        assert edit_url not in html
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in html


def test_share_token_is_not_derived_from_the_id(player):
    first, second = (
        ArmyFactory(owner=player, system="vsgmr", profiles=[]),
        ArmyFactory(owner=player, system="vsgmr", profiles=[]),
    )
    tokens = {services.share_army(first), services.share_army(second)}
    assert len(tokens) == 2 and str(first.pk) not in tokens


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_every_write_verb_on_a_share_link_is_refused(client, player, method):
    army = ArmyFactory(owner=player, file=sample_file("dwarves"))
    token = services.share_army(army)
    for url in (f"/s/{token}/", f"/s/{token}/roster/"):
        response = getattr(client, method)(url, {"name": "Vandalised"})
        assert response.status_code == 405, url
    army.refresh_from_db()
    assert army.name == "Dwarves" and army.units.count() == 3


def test_regenerating_the_token_kills_the_old_link_and_turning_off_kills_all(client, player):
    army = ArmyFactory(owner=player, file=sample_file("dwarves"))
    old = services.share_army(army)
    client.force_login(player)
    client.post(f"/armies/{army.pk}/share/")
    army.refresh_from_db()
    assert army.share_token != old
    assert client.get(f"/s/{old}/").status_code == 404
    assert client.get(f"/s/{army.share_token}/").status_code == 200
    current = army.share_token
    client.post(f"/armies/{army.pk}/share/off/")
    assert client.get(f"/s/{current}/").status_code == 404


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("page", ["", "roster/", "export.md", "play/"])
def test_a_dead_share_link_says_so_on_a_page_of_its_own_whatever_debug_says(
    client, player, settings, debug, page
):
    # bin/serve runs with DEBUG on, where Django's own 404 lists every URL pattern.
    settings.DEBUG = debug
    army = ArmyFactory(owner=player, file=sample_file("dwarves"))
    renewed = services.share_army(army)
    services.share_army(army)  # a new link stops the old one

    response = client.get(f"/s/{renewed}/{page}")

    assert response.status_code == 404
    html = response.content.decode()
    assert '<h1 class="h3">This share link no longer works</h1>' in html
    assert "Ask the owner to send you a new one" in html
    assert "URLconf" not in html and "urlpatterns" not in html
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_a_logged_in_viewer_forks_a_shared_army_and_the_copy_remembers_it(client, player):
    original = ArmyFactory(owner=player, file=sample_file("elves"))
    token = services.share_army(original)
    viewer = UserFactory()
    client.force_login(viewer)
    response = client.post(f"/s/{token}/fork/")
    copy = Army.objects.get(owner=viewer)
    assert response.url == f"/armies/{copy.pk}/"
    assert copy.forked_from == original
    assert copy.to_file() == original.to_file()
    html = client.get(f"/armies/{copy.pk}/").content.decode()
    assert f'Forked from <a href="/s/{token}/">Elves</a>' in html
    # Changing the copy leaves the original alone.
    client.post(
        f"/armies/{copy.pk}/settings/",
        {"name": "My Elves", "points_limit": "25", "version": copy.version},
    )
    original.refresh_from_db()
    assert original.name == "Elves"


@pytest.mark.parametrize("revoke", ["regenerate", "turn-off"])
def test_revoking_the_link_takes_it_off_every_earlier_fork_too(client, player, revoke):
    # The fork's "Forked from" followed the original's current token, so regenerating
    # the link handed the new one to everyone who had forked from the old.
    original = ArmyFactory(owner=player, file=sample_file("elves"))
    token = services.share_army(original)
    client.force_login(UserFactory())
    copy_url = client.post(f"/s/{token}/fork/").url

    owner = Client()
    owner.force_login(player)
    owner.post(f"/armies/{original.pk}/share/" + ("" if revoke == "regenerate" else "off/"))
    html = client.get(copy_url).content.decode()

    original.refresh_from_db()
    assert original.share_token != token
    assert "Forked from" not in html
    assert "/s/" not in html  # neither the old link nor the new one
    if original.share_token:
        assert original.share_token not in html


def test_a_fork_made_through_the_new_link_links_back_through_it(client, player):
    original = ArmyFactory(owner=player, file=sample_file("elves"))
    services.share_army(original)
    token = services.share_army(original)  # regenerated before this viewer came
    client.force_login(UserFactory())

    html = client.get(client.post(f"/s/{token}/fork/").url).content.decode()

    assert f'Forked from <a href="/s/{token}/">Elves</a>' in html


def test_anonymous_fork_goes_to_log_in_and_copies_nothing(client, player):
    token = services.share_army(ArmyFactory(owner=player, file=sample_file("elves")))
    response = client.post(f"/s/{token}/fork/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert Army.objects.count() == 1


def test_matchup_of_elves_and_orcs_is_balanced(client, player):
    elves, orcs = (
        ArmyFactory(owner=player, file=sample_file("elves")),
        ArmyFactory(owner=player, file=sample_file("orcs")),
    )
    client.force_login(player)
    html = client.get(f"/matchup/?a={elves.pk}&b={services.share_army(orcs)}").content.decode()
    assert 'data-testid="total-a">25<' in html and 'data-testid="total-b">24<' in html
    assert "<strong>Balanced</strong>" in html and "differ by 1 points" in html
    assert "matches are fair within 5 points (5 here)" in html


def test_matchup_of_justice_team_and_zombies_is_not_balanced_and_suggests_a_fix(client, player):
    heroes, zombies = (
        ArmyFactory(owner=player, file=sample_file("justice-team")),
        ArmyFactory(owner=player, file=sample_file("zombie-horde")),
    )
    a, b = services.share_army(heroes), services.share_army(zombies)
    # Two shared armies: anyone can open it, no account needed.
    html = client.get(f"/matchup/?a={a}&b=http://example.org/s/{b}/").content.decode()
    assert "<strong>Not balanced</strong>" in html and "differ by 22 points" in html
    # By hand: 6 First Infected at 3 each bring the horde to 38, within 5 of 42.
    assert "Add 6 × First Infected (+18) to B" in html
    assert f'href="/matchup/?a={a}&amp;b={b}"' in html


def test_matchup_with_someone_elses_private_army_id_says_so(client, player):
    private = ArmyFactory(owner=UserFactory(), file=sample_file("orcs"))
    mine = ArmyFactory(owner=player, file=sample_file("elves"))
    client.force_login(player)
    html = client.get(f"/matchup/?a={mine.pk}&b={private.pk}").content.decode()
    assert "No army of yours, and no shared army, matches that." in html
    assert "Orcs" not in html


def test_matchup_of_different_systems_says_they_cannot_be_compared(client, player):
    client.force_login(player)
    gem = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}],
    )
    vs = ArmyFactory(owner=player, file=sample_file("orcs"))
    html = client.get(f"/matchup/?a={gem.pk}&b={vs.pk}").content.decode()
    assert "points cannot be compared" in html


def test_matchup_checks_a_scenario_preset(client, player):
    army = ArmyFactory(owner=player, file=sample_file("zombie-horde"))  # 20 points
    army.preset = "fortress-assault:assaulter"
    army.save()
    other = ArmyFactory(owner=player, file=sample_file("orcs"))
    client.force_login(player)
    html = client.get(f"/matchup/?a={army.pk}&b={other.pk}").content.decode()
    # Fortress Assault suggests 20 points for the assaulter.
    assert "Fortress Assault (assaulter): 20 points suggested, within it" in html


def test_a_preset_with_a_side_its_scenario_does_not_have_is_no_preset(client, player):
    army = ArmyFactory(owner=player, file=sample_file("zombie-horde"))
    army.preset = "ambush:spectator"  # Ambush has an ambusher and a target
    army.save()
    other = ArmyFactory(owner=player, file=sample_file("orcs"))
    client.force_login(player)
    html = client.get(f"/matchup/?a={army.pk}&b={other.pk}").content.decode()
    assert "Ambush" not in html
    assert preset_limit("vsgmr", "ambush:spectator") is None
    assert preset_limit("vsgmr", "ambush:target") == 40
