from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, ArmyFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


def test_signup_creates_the_account_and_logs_the_player_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "thane",
            "email": "thane@example.com",
            "password1": "runes and ale forever",
            "password2": "runes and ale forever",
        },
        follow=True,
    )
    assert User.objects.filter(username="thane").exists()
    assert response.context["user"].username == "thane"
    assert b"Welcome to Muster, thane." in response.content


def test_signup_with_mismatched_passwords_keeps_what_was_typed_and_says_why(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "thane",
            "email": "thane@example.com",
            "password1": "runes and ale forever",
            "password2": "something else",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'value="thane"' in html
    assert 'value="thane@example.com"' in html
    assert "The two password fields didn" in html and "t match." in html
    assert not User.objects.filter(username="thane").exists()


def test_login_with_wrong_password_is_refused_with_a_message(client):
    UserFactory(username="orc")
    response = client.post("/accounts/login/", {"username": "orc", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post_and_ends_the_session(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post("/accounts/logout/")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_change_lets_the_player_log_in_with_the_new_password(client):
    user = UserFactory(username="elf")
    client.force_login(user)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": DEFAULT_PASSWORD,
            "new_password1": "starlight and longbows",
            "new_password2": "starlight and longbows",
        },
    )
    assert response.status_code == 302
    client.logout()
    assert client.login(username="elf", password="starlight and longbows")


def test_password_reset_emails_a_link_that_sets_a_new_password(client):
    UserFactory(username="dwarf", email="dwarf@example.com")
    client.post("/accounts/password_reset/", {"email": "dwarf@example.com"})
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your Muster password"
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    # The first visit swaps the token for a session value and redirects to the form.
    form_url = client.get(link).url
    response = client.post(
        form_url, {"new_password1": "deep mines deeper", "new_password2": "deep mines deeper"}
    )
    assert response.status_code == 302
    assert client.login(username="dwarf", password="deep mines deeper")


def test_signed_in_player_visiting_signup_goes_home(client):
    client.force_login(UserFactory())
    response = client.get("/accounts/signup/")
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_home_page_says_what_muster_is_and_links_every_systems_rules(client):
    html = client.get("/").content.decode()
    assert "army builder" in html
    for system in ("gem", "vsgmr", "goms", "d10"):
        assert f'href="/rules/{system}/"' in html
    assert 'href="/rules/interpretations/"' in html


def test_home_welcomes_back_only_a_player_who_has_an_army(client):
    player = UserFactory(username="recruit")
    client.force_login(player)

    first = client.get("/").content.decode()
    assert "Welcome back" not in first
    assert "Make your first army" in first and 'href="/armies/new/#samples"' in first

    ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    again = client.get("/").content.decode()
    assert "Welcome back, <strong>recruit</strong>." in again
    assert "Make your first army" not in again
