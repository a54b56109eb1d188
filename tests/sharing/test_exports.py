"""Text exports for forums and chat: plain text, Markdown and BBCode (SPEC 5).

The golden files under tests/data/exports/ were written by hand from the SPEC's prices;
{share_url} in them stands for the army's share link."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from armies import services
from sharing.exports import md_escape
from tests.factories import ArmyFactory, UserFactory
from tests.samples import EXPORT_ARMIES, GOLDEN, army_file

pytestmark = pytest.mark.django_db

KINDS = ("txt", "md", "bbcode")


def _shared(system: str):
    army = ArmyFactory(owner=UserFactory(), file=EXPORT_ARMIES[system])
    services.share_army(army)
    return army


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("system", sorted(EXPORT_ARMIES))
def test_the_share_links_text_export_matches_the_hand_written_golden_file(client, system, kind):
    army = _shared(system)
    url = f"/s/{army.share_token}/export.{kind}"

    response = client.get(url)  # nobody logged in: the link is the key

    assert response.status_code == 200
    expected = (GOLDEN / f"{system}.{kind}").read_text()
    share_url = f"http://testserver/s/{army.share_token}/"
    assert response.content.decode() == expected.replace("{share_url}", share_url)


@pytest.mark.parametrize(
    ("kind", "content_type"),
    [
        ("txt", "text/plain; charset=utf-8"),
        ("md", "text/markdown; charset=utf-8"),
        ("bbcode", "text/plain; charset=utf-8"),
    ],
)
def test_the_owner_downloads_each_export_as_text_with_a_file_name(
    player_client, player, kind, content_type
):
    army = ArmyFactory(owner=player, system="gem", profiles=[], name="Iron Duke's Guard")

    response = player_client.get(f"/armies/{army.pk}/export.{kind}")

    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'inline; filename="Iron-Duke-s-Guard.{kind}"'


def test_the_json_and_text_downloads_are_saved_under_the_same_cleaned_name(player_client, player):
    name = "Iron Duke's <b>Guard</b> " + "x" * 60
    army = ArmyFactory(owner=player, system="gem", profiles=[], name=name)
    # Each character but a letter, digit, - or _ becomes -, and the stem stops at 60.
    stem = ("Iron-Duke-s--b-Guard--b--" + "x" * 60)[:60]

    json_file = player_client.get(f"/armies/{army.pk}/export.json")
    text_file = player_client.get(f"/armies/{army.pk}/export.md")

    assert json_file["Content-Disposition"] == f'attachment; filename="{stem}.json"'
    assert text_file["Content-Disposition"] == f'inline; filename="{stem}.md"'


def test_the_owners_export_carries_the_link_only_while_sharing_is_on(player_client, player):
    army = ArmyFactory(owner=player, file=EXPORT_ARMIES["vsgmr"])
    url = f"/armies/{army.pk}/export.txt"

    private = player_client.get(url).content.decode()
    token = services.share_army(army)
    shared = player_client.get(url).content.decode()

    assert "Link:" not in private and "/s/" not in private
    assert private.startswith("Dwarves\nVSGMR · rules vsgmr/2026.1\nTotal: 13 / 30 pts")
    assert f"Link: http://testserver/s/{token}/\n" in shared


def test_a_revoked_share_link_gives_no_text_export(client):
    army = _shared("gem")
    old = army.share_token
    assert client.get(f"/s/{old}/export.md").status_code == 200

    new = services.share_army(army)  # a new link revokes the old one
    assert [client.get(f"/s/{old}/export.{kind}").status_code for kind in KINDS] == [404] * 3
    assert client.get(f"/s/{new}/export.md").status_code == 200

    services.unshare_army(army)
    assert [client.get(f"/s/{new}/export.{kind}").status_code for kind in KINDS] == [404] * 3


def test_a_deleted_armys_share_link_gives_no_text_export(client):
    army = _shared("d10")
    services.trash_army(army.owner, army.pk)

    assert client.get(f"/s/{army.share_token}/export.txt").status_code == 404


def test_markdown_shows_a_players_own_punctuation_as_typed(player_client, player):
    army = ArmyFactory(
        owner=player,
        system="gem",
        profiles=[{"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}],
        name="*Bold*",
    )
    services.save_settings(army, {"name": "**Not** _bold_ # [link](x)"}, None)

    text = player_client.get(f"/armies/{army.pk}/export.md").content.decode()

    assert text.startswith(r"## \*\*Not\*\* \_bold\_ \# \[link\](x)" + "\n")


def _as_a_forum_shows(markdown: str) -> list[str]:
    """The text of each heading once a CommonMark forum has drawn it."""
    html = MarkdownIt("commonmark").render(markdown)
    headings = re.findall(r"<h2>(.*?)</h2>", html)
    return [unescape(re.sub(r"<[^>]+>", "", heading)) for heading in headings]


@pytest.mark.parametrize(
    "name",
    [
        "Salt &amp; Pepper",  # typed so, and shown so: not as "Salt & Pepper"
        "Fish & Chips",
        "&#38; &#x26; &copy; &nosuchname; &;",
        r"**Not** _bold_ # [link](x) <b>y</b> `code` \ ~strike~ | pipe",
    ],
)
def test_a_markdown_export_shows_the_name_on_a_forum_exactly_as_typed(player_client, player, name):
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[{"kind": "guy", "flavor": "troop"}])
    services.save_settings(army, {"name": name}, None)

    text = player_client.get(f"/armies/{army.pk}/export.md").content.decode()

    assert _as_a_forum_shows(text) == [name]


def test_a_lone_ampersand_is_left_as_typed_in_the_markdown():
    assert md_escape("Fish & Chips") == "Fish & Chips"
    assert md_escape("Salt &amp; Pepper") == r"Salt \&amp; Pepper"


TYPED = st.lists(
    st.one_of(
        st.text(st.characters(categories=["L", "N", "P", "S", "Zs"])),
        st.sampled_from(["&amp;", "&#38;", "&#x26;", "&lt;b&gt;", "\\&amp;", "**", "_", "`"]),
    ),
    min_size=1,
).map(lambda parts: "".join(parts).strip())


@given(TYPED)
def test_any_typed_heading_reads_back_as_typed(name):
    if not name:
        return
    assert _as_a_forum_shows(f"## {md_escape(name)}\n") == [name]


def test_an_export_shows_the_stored_errors_of_each_unit(player_client, player):
    # A VSGMR army with a mook commander: bad-commander on the unit (SPEC 3.3).
    doc = army_file(
        "Goblins",
        "vsgmr",
        None,
        [("Boss", 1, {"kind": "guy", "flavor": "mook", "commander": True})],
    )
    army = ArmyFactory(owner=player, file=doc)

    text = player_client.get(f"/armies/{army.pk}/export.txt").content.decode()

    assert "Total: 0.5 pts · NOT LEGAL\n! Boss: " in text


@pytest.mark.parametrize("units", [1, 60])
def test_an_export_costs_the_same_queries_whatever_the_armys_size(
    player_client, player, django_assert_num_queries, units
):
    profile = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}
    army = ArmyFactory(owner=player, system="gem", profiles=[profile] * units)

    # Session, user, the army, its units.
    with django_assert_num_queries(4):
        text = player_client.get(f"/armies/{army.pk}/export.txt").content.decode()
    assert text.count(" — 6.5 pts\n") == units
