"""A NUL or any other character no token holds is a 404 or a message, never a 500 (#28.4).

PostgreSQL refuses NUL in any text it is asked about; run these with DATABASE_URL set to a
PostgreSQL database too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from armies import services
from armies.models import Tag
from tests.factories import ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

BAD_TOKENS = ["%00", "a%00b", "abc%01def", "%C3%A9t%C3%A9", "a.b", "x" * 65]

SHARE_GETS = [
    "/s/{}/",
    "/s/{}/roster/",
    "/s/{}/export.txt",
    "/s/{}/export.md",
    "/s/{}/export.bbcode",
    "/s/{}/cards/",
    "/s/{}/play/",
    "/s/{}/play/games/1/",
    "/s/{}/roll/",
    "/s/{}/roll/1/",
]
SHARE_POSTS = ["/s/{}/fork/", "/s/{}/roll/1/seed/"]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_a_share_link_no_token_could_be_is_not_found_before_the_database_is_asked(
    client, token, django_assert_num_queries
):
    for route in SHARE_GETS:
        with django_assert_num_queries(0):
            assert client.get(route.format(token)).status_code == 404, route


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_forking_or_seeding_through_a_malformed_link_is_not_found(client, token):
    client.force_login(UserFactory())
    for route in SHARE_POSTS:
        assert client.post(route.format(token), {"seed": "12"}).status_code == 404, route
        assert client.get(route.format(token)).status_code == 404, route


def test_a_good_share_link_still_opens_everywhere(client):
    army = ArmyFactory(name="Host", system="gem")
    token = services.share_army(army)
    for route in ["/s/{}/", "/s/{}/roster/", "/s/{}/export.txt", "/s/{}/cards/"]:
        assert client.get(route.format(token)).status_code == 200, route


@pytest.mark.parametrize("typed", ["a\x00b", "\x00", "tour\x01nament", "x\x7fy"])
def test_taking_off_a_tag_with_a_control_character_is_refused_with_a_message(client, typed):
    owner = UserFactory()
    army = ArmyFactory(owner=owner, name="Host", system="gem")
    client.force_login(owner)
    client.post(reverse("armies:tag-add", args=[army.pk]), {"new_tag": "ab"})

    response = client.post(reverse("armies:tag-remove", args=[army.pk]), {"tag": typed})

    assert response.status_code == 400
    assert "no control characters" in response.content.decode()
    assert list(army.tags.values_list("name", flat=True)) == ["ab"]


@pytest.mark.parametrize("typed", ["a\x00b", "tour\x01nament"])
def test_adding_a_tag_with_a_control_character_is_refused_beside_the_field(client, typed):
    owner = UserFactory()
    army = ArmyFactory(owner=owner, name="Host", system="gem")
    client.force_login(owner)

    response = client.post(reverse("armies:tag-add", args=[army.pk]), {"new_tag": typed})

    assert response.status_code == 400
    assert 'id="new-tag-error"' in response.content.decode()
    assert "no control characters" in response.content.decode()
    assert not Tag.objects.filter(owner=owner).exists()


def test_a_tag_is_still_taken_off_by_its_name(client):
    owner = UserFactory()
    army = ArmyFactory(owner=owner, name="Host", system="gem")
    client.force_login(owner)
    client.post(reverse("armies:tag-add", args=[army.pk]), {"new_tag": "  Grand   tour "})

    response = client.post(reverse("armies:tag-remove", args=[army.pk]), {"tag": "Grand tour"})

    assert response.status_code == 302
    assert not army.tags.exists()
