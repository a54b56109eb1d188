"""The library has a stated limit, is paged, and the builder and picker read a bounded
slice of it, even for an account filled before the limit existed (#28.7)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from armies import services
from armies.models import MAX_LIBRARY, LibraryEntry
from tests.factories import ArmyFactory, LibraryEntryFactory

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

TRAIT = {"name": "Weapon Master", "cost": "1.5", "text": "Rerolls a miss."}
TROOP = {"kind": "guy", "flavor": "troop"}


def _fill(owner, count: int, **fields) -> None:
    """`count` entries at once: made by the factory, written in one statement."""
    LibraryEntry.objects.bulk_create(LibraryEntryFactory.build_batch(count, owner=owner, **fields))


def test_the_limit_is_two_hundred_entries():
    assert MAX_LIBRARY == 200


def test_a_full_library_refuses_another_entry_beside_the_form_keeping_what_was_typed(
    player_client, player
):
    _fill(player, MAX_LIBRARY - 1)
    assert player_client.post("/library/new/trait/", TRAIT).status_code == 302

    response = player_client.post("/library/new/trait/", {**TRAIT, "name": "One too many"})

    assert response.status_code == 400
    html = response.content.decode()
    assert f"A library keeps at most {MAX_LIBRARY} figures, weapons and traits" in html
    assert 'value="One too many"' in html
    assert LibraryEntry.objects.filter(owner=player).count() == MAX_LIBRARY
    assert not LibraryEntry.objects.filter(name="One too many").exists()


def test_the_service_refuses_past_the_limit(player):
    _fill(player, MAX_LIBRARY)

    with pytest.raises(services.LibraryFull):
        services.add_library_entry(player, "trait", "vsgmr", "Extra", {"cost": 1, "text": ""})


def test_the_library_page_states_the_limit_and_shows_fifty_entries_a_page(player_client, player):
    _fill(player, 120)

    first = player_client.get("/library/").content.decode()
    last = player_client.get("/library/?page=3").content.decode()

    assert f"A library keeps up to {MAX_LIBRARY} entries: yours has 120." in first
    assert first.count('data-testid="library-entry"') == 50
    assert "Page 1 of 3" in first and 'href="?page=2" rel="next"' in first
    assert last.count('data-testid="library-entry"') == 20
    assert 'href="?page=2" rel="prev"' in last


@pytest.mark.parametrize("entries", [5, 150])
def test_the_library_page_costs_the_same_queries_whatever_its_size(
    player_client, player, entries, django_assert_num_queries
):
    _fill(player, entries)

    # Session, user, the count, a page of entries.
    with django_assert_num_queries(4):
        player_client.get("/library/")


def test_an_account_filled_before_the_limit_gets_a_bounded_slice_in_builder_and_picker(
    player_client, player
):
    _fill(player, MAX_LIBRARY + 100, kind="figure", system="vsgmr", data=TROOP)
    army = ArmyFactory(owner=player, system="vsgmr", profiles=[TROOP])

    builder = player_client.get(f"/armies/{army.pk}/").content.decode()
    with CaptureQueriesContext(connection) as queries:
        picker = player_client.get(f"/armies/{army.pk}/units/pick/", {"source": "library"})

    library_reads = [q["sql"] for q in queries if "armies_libraryentry" in q["sql"]]
    assert len(library_reads) == 1 and f"LIMIT {MAX_LIBRARY}" in library_reads[0]
    assert f"{MAX_LIBRARY} figures, page 1 of" in picker.content.decode()
    options = builder.split('id="library-figure"')[1].split("</select>")[0]
    assert options.count("<option") == MAX_LIBRARY
