"""Every page kept its address when the apps took their own URL namespaces (#46): the
addresses are SPEC 5's, bookmarked and printed on rosters (the QR code), so each name is
reversed here to the path it had, and the path resolves back to that name (no earlier
pattern shadows it)."""

from __future__ import annotations

import pytest
from django.urls import resolve, reverse

TOKEN = "Sh4re-t0ken_of_32_characters_xyz"  # a share token: up to 64 of [A-Za-z0-9_-]

# name, arguments, the address it had before the namespaces (written out by hand).
ADDRESSES = [
    # SPEC 5's list
    ("signup", [], "/accounts/signup/"),
    ("login", [], "/accounts/login/"),
    ("logout", [], "/accounts/logout/"),
    ("armies:list", [], "/armies/"),
    ("armies:new", [], "/armies/new/"),
    ("armies:import", [], "/armies/import/"),
    ("armies:builder", [7], "/armies/7/"),
    ("armies:export", [7], "/armies/7/export.json"),
    ("sharing:roster", [7], "/armies/7/roster/"),
    ("sharing:shared", [TOKEN], f"/s/{TOKEN}/"),
    ("sharing:shared-roster", [TOKEN], f"/s/{TOKEN}/roster/"),
    ("sharing:matchup", [], "/matchup/"),
    ("rules:system", ["gem"], "/rules/gem/"),
    ("rules:interpretations", [], "/rules/interpretations/"),
    ("api-price", [], "/api/price/"),
    ("healthz", [], "/healthz"),
    ("sharing:export-txt", [7], "/armies/7/export.txt"),
    ("sharing:export-md", [7], "/armies/7/export.md"),
    ("sharing:export-bbcode", [7], "/armies/7/export.bbcode"),
    ("sharing:shared-txt", [TOKEN], f"/s/{TOKEN}/export.txt"),
    ("sharing:shared-md", [TOKEN], f"/s/{TOKEN}/export.md"),
    ("sharing:shared-bbcode", [TOKEN], f"/s/{TOKEN}/export.bbcode"),
    ("table:play", [7], "/armies/7/play/"),
    ("table:shared-play", [TOKEN], f"/s/{TOKEN}/play/"),
    ("odds:fight", ["vsgmr"], "/rules/vsgmr/fight/"),
    ("api-fight", [], "/api/fight/"),
    # table mode and the acquisition rolls (once armies:… and shared-…)
    ("table:acquisition", [7], "/armies/7/acquisition/"),
    ("table:acquisition-roll", [7], "/armies/7/acquisition/roll/"),
    ("table:acquisition-reroll", [7], "/armies/7/acquisition/reroll/"),
    ("table:acquisition-finish", [7], "/armies/7/acquisition/finish/"),
    ("table:play-tap", [7], "/armies/7/play/tap/"),
    ("table:play-undo", [7], "/armies/7/play/undo/"),
    ("table:play-new", [7], "/armies/7/play/new/"),
    ("table:play-game", [7, 2], "/armies/7/play/games/2/"),
    ("table:shared-play-game", [TOKEN, 2], f"/s/{TOKEN}/play/games/2/"),
    ("table:shared-roll", [TOKEN], f"/s/{TOKEN}/roll/"),
    ("table:shared-roll-record", [TOKEN, 3], f"/s/{TOKEN}/roll/3/"),
    ("table:shared-roll-seed", [TOKEN, 3], f"/s/{TOKEN}/roll/3/seed/"),
    # sharing, printing and exports (once armies:… or without a namespace)
    ("sharing:cards", [7], "/armies/7/cards/"),
    ("sharing:share-on", [7], "/armies/7/share/"),
    ("sharing:share-off", [7], "/armies/7/share/off/"),
    ("sharing:manifest", [], "/manifest.webmanifest"),
    ("sharing:service-worker", [], "/sw.js"),
    ("sharing:offline", [], "/offline/"),
    ("sharing:shared-cards", [TOKEN], f"/s/{TOKEN}/cards/"),
    ("sharing:blank-cards", ["gem"], "/print/gem/blank-cards/"),
    ("sharing:quick-reference", ["d10"], "/print/d10/quick-reference/"),
    ("sharing:fork", [TOKEN], f"/s/{TOKEN}/fork/"),
    # the calculators (once fight, table-1, armies:unit-fight, shared-unit-fight)
    ("odds:table-1", [], "/rules/gem/table-1/"),
    ("odds:unit-fight", [7, 9], "/armies/7/units/9/fight/"),
    ("odds:shared-unit-fight", [TOKEN, 9], f"/s/{TOKEN}/units/9/fight/"),
]


@pytest.mark.parametrize(("name", "args", "address"), ADDRESSES, ids=[a[0] for a in ADDRESSES])
def test_each_page_keeps_its_address(name, args, address):
    assert reverse(name, args=args) == address
    assert resolve(address).view_name == name
