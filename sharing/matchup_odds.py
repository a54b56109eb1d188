"""The matchup's points against odds (SPEC 3.8): every unit of one army against every unit
of the other. The page draws the totals first and asks for this table on its own; it is
the costly part (up to about 2 s of CPU), so each address may ask for it a few times a
minute, counted where every worker sees it, as the price and fight APIs are."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings

from accounts import throttle
from accounts.http import HtmxHttpRequest
from points import fights

WINDOW_SECONDS = 60


def odds_table(
    request: HtmxHttpRequest, system: str, a_units: Sequence[object], b_units: Sequence[object]
) -> fights.OddsTable | int:
    """The table, or the seconds to wait when this address has asked too often."""
    limit = settings.MATCHUP_ODDS_PER_MINUTE
    address = throttle.client_address(request)
    found = throttle.strike(f"matchup-odds:addr:{address}", limit, WINDOW_SECONDS)
    if found.count > limit:
        return throttle.retry_after(found)
    return fights.points_against_odds(system, a_units, b_units)
