"""{% url %} and config.urlcache.reverse remember their answers, and answer as Django would."""

from __future__ import annotations

import pytest
from django.template import engines
from django.urls import NoReverseMatch, get_script_prefix, reverse, set_script_prefix

from config import urlcache


def render(source: str, **context) -> str:
    # The project's engine: {% url %} there is config.urlcache's, a builtin (no {% load %}).
    return engines["django"].from_string(source).render(context)


@pytest.fixture
def script_prefix():
    """Change the script prefix inside a test; the one before comes back afterwards."""
    before = get_script_prefix()
    yield set_script_prefix
    set_script_prefix(before)


def test_templates_url_is_the_remembering_tag():
    # Otherwise every other test here would be checking Django's own tag.
    render("{% url 'armies:builder' 424242 %}")
    hits = urlcache._reverse.cache_info().hits
    assert render("{% url 'armies:builder' 424242 %}") == "/armies/424242/"
    assert urlcache._reverse.cache_info().hits == hits + 1


def test_the_tag_gives_djangos_url_for_positional_and_keyword_arguments():
    for _ in range(2):  # drawn, then remembered: the same both times
        assert render("{% url 'armies:builder' pk %}", pk=7) == reverse("armies:builder", args=[7])
        assert render(
            "{% url 'armies:unit-update' pk=army unit_pk=unit %}", army=3, unit=12
        ) == reverse("armies:unit-update", kwargs={"pk": 3, "unit_pk": 12})
        assert render("{% url 'shared' token %}", token="a-B_c") == reverse(
            "shared", args=["a-B_c"]
        )
        assert render("{% url 'armies:list' %}") == reverse("armies:list") == "/armies/"
    # Different arguments never get each other's answer.
    assert render("{% url 'armies:builder' 8 %}") == "/armies/8/"
    assert render("{% url 'armies:builder' '9' %}") == "/armies/9/"


def test_the_tag_escapes_and_stores_with_as_like_djangos():
    assert render("{% url 'shared' token %}", token="a&b") == "/s/a&amp;b/"
    html = render("{% url 'armies:builder' 5 as link %}<a href='{{ link }}'>")
    assert html == "<a href='/armies/5/'>"


def test_a_changed_script_prefix_gives_the_prefixed_url(script_prefix):
    assert render("{% url 'armies:builder' 5 %}") == "/armies/5/"
    assert urlcache.reverse("armies:builder", args=[5]) == "/armies/5/"
    script_prefix("/muster/")
    # The same view and arguments, asked for before under "/": now under the new prefix.
    assert render("{% url 'armies:builder' 5 %}") == "/muster/armies/5/"
    assert urlcache.reverse("armies:builder", args=[5]) == "/muster/armies/5/"
    assert reverse("armies:builder", args=[5]) == "/muster/armies/5/"
    script_prefix("/")
    assert render("{% url 'armies:builder' 5 %}") == "/armies/5/"


def test_an_unknown_view_is_empty_with_as_and_an_error_without():
    assert render("[{% url 'nope' as x %}{{ x }}]") == "[]"
    assert render("[{% url 'armies:builder' 'not-a-number' as x %}{{ x }}]") == "[]"
    with pytest.raises(NoReverseMatch):
        render("{% url 'nope' %}")
    with pytest.raises(NoReverseMatch):  # asked twice: a failure is not remembered as ""
        render("{% url 'nope' %}")
    with pytest.raises(NoReverseMatch):
        urlcache.reverse("nope")


class Text:
    """An argument that is neither int nor str: reverse() uses its str()."""

    def __init__(self, value: str):
        self.value = value

    def __str__(self) -> str:
        return self.value


def test_arguments_that_are_not_plain_are_reversed_as_django_would():
    assert render("{% url 'shared' x %}", x=1.5) == reverse("shared", args=[1.5]) == "/s/1.5/"
    assert render("{% url 'armies:builder' x %}", x=Text("5")) == "/armies/5/"
    # Not remembered by the object: the same object saying something else gets its new URL.
    token = Text("first")
    assert render("{% url 'shared' token %}", token=token) == "/s/first/"
    token.value = "second"
    assert render("{% url 'shared' token %}", token=token) == "/s/second/"
    assert urlcache.reverse("shared", args=[token]) == "/s/second/"
    assert urlcache.reverse("armies:builder", kwargs={"pk": Text("6")}) == "/armies/6/"


def test_reverse_equals_djangos():
    cases = [
        ("armies:list", (), None),
        ("armies:builder", (1,), None),
        ("armies:builder", ("1",), None),
        ("armies:unit-move", (2, 30), None),
        ("armies:unit-move", (), {"unit_pk": 30, "pk": 2}),
        ("shared", ("tok",), None),
        ("shared-roster", (), {"token": "tok"}),
        ("rules:table-1", (), None),
    ]
    for _ in range(2):
        for name, args, kwargs in cases:
            assert urlcache.reverse(name, args=args, kwargs=kwargs) == reverse(
                name, args=args, kwargs=kwargs
            )
    # Keyword order does not matter, and does not mix up the values.
    assert urlcache.reverse("armies:unit-move", kwargs={"pk": 2, "unit_pk": 30}) == (
        "/armies/2/units/30/move/"
    )
    assert urlcache.reverse("armies:unit-move", kwargs={"unit_pk": 2, "pk": 30}) == (
        "/armies/30/units/2/move/"
    )


def test_a_swapped_urlconf_is_answered_from_the_new_one(settings):
    # override_settings(ROOT_URLCONF=...) in a test: remembered answers must not outlive it.
    assert render("{% url 'healthz' %}") == "/healthz"
    settings.ROOT_URLCONF = "tests.urlconf_moved"
    assert render("{% url 'healthz' %}") == "/moved/healthz"
    assert urlcache.reverse("healthz") == "/moved/healthz"
