"""Wrong passwords sent all at once get no more checks than one at a time (#28.11)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.contrib.auth import authenticate as real_authenticate
from django.test import Client

from accounts import throttle
from accounts.models import Strikes
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.helpers import at_once

pytestmark = pytest.mark.databases

LOGIN = "/accounts/login/"


def log_ins_at_once(attempts: int, username: str, password: str) -> tuple[list[int], int]:
    """Post `attempts` log-ins together from as many threads (as from several workers):
    their status codes, and how many passwords were actually checked."""
    checked = []

    def slow_check(*args, **kwargs):
        # A real password hash takes a while; the race lives in that while.
        checked.append(1)
        time.sleep(0.3)
        return real_authenticate(*args, **kwargs)

    def attempt() -> int:
        return Client().post(LOGIN, {"username": username, "password": password}).status_code

    with mock.patch("django.contrib.auth.forms.authenticate", side_effect=slow_check):
        codes = at_once([attempt] * attempts)
    return sorted(codes), len(checked)


@pytest.mark.django_db(transaction=True)
def test_eight_wrong_passwords_at_once_get_five_checked():
    UserFactory(username="orc")

    codes, checked = log_ins_at_once(8, "orc", "wrong guess")

    assert checked == throttle.FAILURES_PER_USERNAME == 5
    assert codes == [200] * 5 + [429] * 3
    # And the name is locked for the right password too.
    right = Client().post(LOGIN, {"username": "orc", "password": DEFAULT_PASSWORD})
    assert right.status_code == 429


@pytest.mark.django_db(transaction=True)
def test_right_passwords_at_once_all_get_in_and_leave_nothing_counted():
    UserFactory(username="elf")

    # As many at once as the name's limit (in flight together, each counted until its
    # password is found right).
    codes, checked = log_ins_at_once(throttle.FAILURES_PER_USERNAME, "elf", DEFAULT_PASSWORD)

    assert codes == [302] * 5 and checked == 5
    # A school behind one address logs in all day: successes never count against it.
    assert sum(Strikes.objects.values_list("count", flat=True)) == 0
