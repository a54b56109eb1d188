"""Log-in throttling: guessing passwords is stopped, without telling who has an account."""

from __future__ import annotations

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from accounts import throttle
from accounts.models import Strikes
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

LOGIN = "/accounts/login/"


def _attempt(client, username: str, password: str = "wrong guess", **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def _fail(client, username: str, times: int = throttle.FAILURES_PER_USERNAME, **extra) -> None:
    for _ in range(times):
        response = _attempt(client, username, **extra)
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()


def test_five_wrong_passwords_lock_the_name_even_for_the_right_password(client):
    UserFactory(username="orc")
    _fail(client, "orc")

    response = _attempt(client, "orc", DEFAULT_PASSWORD)

    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many failed log-in attempts" in html
    assert 'name="username"' in html and 'value="orc"' in html
    assert "_auth_user_id" not in client.session


def test_four_wrong_passwords_still_let_the_right_one_in(client):
    UserFactory(username="orc")
    _fail(client, "orc", times=throttle.FAILURES_PER_USERNAME - 1)

    response = _attempt(client, "orc", DEFAULT_PASSWORD)

    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_a_locked_name_looks_the_same_whether_or_not_the_account_exists(client):
    UserFactory(username="orc")
    _fail(client, "orc")
    _fail(client, "nobody-by-this-name")

    real = _attempt(client, "orc")
    made_up = _attempt(client, "nobody-by-this-name")

    assert real.status_code == made_up.status_code == 429
    assert real.context["form"].errors == made_up.context["form"].errors


def test_while_locked_the_password_is_not_even_checked(client):
    UserFactory(username="orc")
    _fail(client, "orc")

    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        _attempt(client, "orc", DEFAULT_PASSWORD)

    authenticate.assert_not_called()


def test_the_lock_lifts_after_fifteen_minutes(client):
    UserFactory(username="orc")
    _fail(client, "orc")
    assert _attempt(client, "orc", DEFAULT_PASSWORD).status_code == 429

    later = timezone.now() + timedelta(seconds=throttle.LOCKOUT_SECONDS + 1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        response = _attempt(client, "orc", DEFAULT_PASSWORD)

    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_other_names_from_the_same_address_can_still_log_in(client):
    UserFactory(username="orc")
    UserFactory(username="elf")
    _fail(client, "orc")

    assert _attempt(client, "elf", DEFAULT_PASSWORD).status_code == 302


def test_the_name_is_locked_whatever_its_case_or_surrounding_spaces(client):
    UserFactory(username="orc")
    _fail(client, "orc")

    assert _attempt(client, " ORC ", DEFAULT_PASSWORD).status_code == 429


def test_a_successful_login_clears_the_names_count(client):
    UserFactory(username="orc")
    _fail(client, "orc", times=throttle.FAILURES_PER_USERNAME - 1)
    assert _attempt(client, "orc", DEFAULT_PASSWORD).status_code == 302
    client.logout()

    _fail(client, "orc", times=throttle.FAILURES_PER_USERNAME - 1)

    assert _attempt(client, "orc", DEFAULT_PASSWORD).status_code == 302


def test_one_address_guessing_at_many_names_is_stopped(client):
    UserFactory(username="orc")
    for i in range(throttle.FAILURES_PER_ADDRESS):
        _fail(client, f"victim{i}", times=1)

    response = _attempt(client, "orc", DEFAULT_PASSWORD)

    assert response.status_code == 429
    # Somebody else, elsewhere, is not affected.
    assert _attempt(client, "orc", DEFAULT_PASSWORD, REMOTE_ADDR="192.0.2.7").status_code == 302


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_behind_the_load_balancer_the_address_it_forwards_is_counted(client):
    UserFactory(username="orc")
    balancer = {"REMOTE_ADDR": "10.0.0.2"}
    for i in range(throttle.FAILURES_PER_ADDRESS):
        # A client cannot dodge the count by sending its own X-Forwarded-For first.
        spoofed = f"198.51.100.{i}, 203.0.113.9"
        _fail(client, f"victim{i}", times=1, HTTP_X_FORWARDED_FOR=spoofed, **balancer)

    stopped = _attempt(
        client, "orc", DEFAULT_PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9", **balancer
    )
    other_player = _attempt(
        client, "orc", DEFAULT_PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.7", **balancer
    )

    assert stopped.status_code == 429
    assert other_player.status_code == 302


def test_the_admin_login_page_is_throttled_too(client):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for _ in range(throttle.FAILURES_PER_USERNAME):
        client.post("/admin/login/", {"username": "boss", "password": "wrong guess"})

    response = client.post("/admin/login/", {"username": "boss", "password": DEFAULT_PASSWORD})

    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lock_holds_in_every_worker_and_after_a_restart(client):
    # Counted in one worker's memory, a second worker checked five more passwords and a
    # restart lifted every lock. A worker's memory is its cache: wipe it, as a restart
    # does (and as another worker's empty one would be).
    UserFactory(username="orc")
    _fail(client, "orc", times=3)
    cache.clear()
    _fail(client, "orc", times=throttle.FAILURES_PER_USERNAME - 3)
    cache.clear()

    with mock.patch("django.contrib.auth.forms.authenticate") as authenticate:
        response = _attempt(client, "orc", DEFAULT_PASSWORD)

    assert response.status_code == 429
    authenticate.assert_not_called()


def test_counts_that_ran_out_are_deleted_when_a_new_one_starts(client):
    _fail(client, "orc", times=1)
    assert Strikes.objects.count() == 2  # the name and the address

    later = timezone.now() + timedelta(seconds=throttle.WINDOW_SECONDS + 1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        _fail(client, "elf", times=1, REMOTE_ADDR="192.0.2.7")

    assert Strikes.objects.count() == 2  # elf's two; orc's ran out and are gone


@pytest.mark.django_db(transaction=True)
def test_strikes_at_the_same_moment_are_each_counted():
    # Two workers failing a log-in at once must not both read 4 and write 5.
    def strike_five_times():
        try:
            for _ in range(5):
                throttle.strike("login-failures:name:race", 1000, throttle.WINDOW_SECONDS)
        finally:
            connection.close()

    workers = [threading.Thread(target=strike_five_times) for _ in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert Strikes.objects.get(key="login-failures:name:race").count == 30
