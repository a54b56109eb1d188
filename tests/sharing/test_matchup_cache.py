"""A matchup drawn from a share link is kept by no cache, like the share page (#28.5)."""

from __future__ import annotations

import pytest

from armies import services
from tests.factories import ArmyFactory, UserFactory

pytestmark = pytest.mark.django_db


def _shared_army(name: str):
    army = ArmyFactory(name=name, system="gem")
    services.share_army(army)
    return army


def test_a_matchup_of_two_share_tokens_is_never_stored(client):
    a, b = _shared_army("Host"), _shared_army("Guests")

    response = client.get(f"/matchup/?a={a.share_token}&b={b.share_token}")

    assert response.status_code == 200
    assert "Host" in response.content.decode() and "Guests" in response.content.decode()
    assert response["Cache-Control"] == "no-store"


def test_a_matchup_of_a_pasted_share_link_is_never_stored(client):
    a = _shared_army("Host")

    response = client.get("/matchup/", {"a_link": f"https://muster.example/s/{a.share_token}/"})

    assert response.status_code == 200
    assert "Host" in response.content.decode()
    assert response["Cache-Control"] == "no-store"


def test_a_signed_in_matchup_with_one_shared_side_is_never_stored(client):
    me = UserFactory()
    mine = ArmyFactory(owner=me, name="Mine", system="gem")
    theirs = _shared_army("Theirs")
    client.force_login(me)

    response = client.get(f"/matchup/?a={mine.pk}&b={theirs.share_token}")

    assert "no-store" in response["Cache-Control"]


def test_an_empty_matchup_form_says_nothing_about_caching(client):
    response = client.get("/matchup/")

    assert response.status_code == 200
    assert "Cache-Control" not in response
