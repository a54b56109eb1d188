"""The fight odds' readings (SPEC 3.8) are on the Interpretations page with worked numbers."""

from __future__ import annotations

from django.urls import reverse


def test_interpretations_page_shows_the_fight_readings_with_their_odds(client, db):
    html = client.get(reverse("rules:interpretations")).content.decode()

    assert "Fight odds: a duel&#x27;s initiative is an even chance" in html or (
        "Fight odds: a duel's initiative is an even chance" in html
    )
    assert "Fight odds: a charge counts in the first round" in html
    assert "Fight odds: a close fight ends when one model goes down" in html
    # Hand-derived: hero v troop hand to hand 3/5; OFF 4 v DEF 4 with a first-round charge
    # 11/30 (36.7%) each way but 4/15 (26.7%) for the charged side.
    assert "a hero wins 60.0%, a troop 40.0%, draw 0.0%" in html
    assert "the charger wins 36.7%, the charged 26.7%, draw 36.7%" in html
    # Nothing a troop rolls gets past a Tough vehicle's heavy armour.
    assert "a troop wins 0.0%" in html


def test_every_reading_the_fight_odds_rest_on_is_written_down(client, db):
    # SPEC 3.6 items 9-11 and SPEC 3.8's "Readings the odds rest on", one card each.
    html = client.get(reverse("rules:interpretations")).content.decode().replace("&#x27;", "'")
    readings = [
        "Fight odds: a natural 20 hits, a natural 1 misses",
        "Table 1's four marked cells (* and !) are decided by the natural roll alone",
        "Fight odds: a vehicle without OFF makes no attacks",
        "Fight odds: a charge counts in the first round",
        "Fight odds: a fight nobody can win is a draw",
        "Fight odds: a duel is one figure against one",
        "A hero commander fights in the heavy armour it always wears",
        "Fight odds: cover and Stealth count at distance only",
        "Fight odds: Double Strike strikes once more",
        "Fight odds: the bigger margin wins a close fight",
        "A margin 5 or more above the other side's is a critical",
        "Fight odds: a natural 1 fails, a natural 0 succeeds",
        "that holds for the wound roll against Defence too",
        "Each uses the first weapon of its own list that is on the seed's table",
        "Fight odds: you choose who acts first",
        "Fight odds: the shotgun's spray",
    ]
    for reading in readings:
        assert reading in html, reading
    # Worked by hand (tests/points/test_d10_fights.py): twins close in even, 53.6% to
    # 46.4% when one always acts first; Shooting 5 hits on 5-0 (60%), with the spray 3-0
    # (80%); an OFF 1 against DEF 9 hits only on a natural 20 (1/20), OFF 10 against DEF 1
    # misses only on a natural 1 (19/20).
    assert "one rifleman wins 50.0%, its twin 50.0%" in html
    assert "with the first always acting first, one rifleman wins 53.6%, its twin 46.4%" in html
    assert "Shooting 5 hits 60% of the time with a carbine, 80% with a shotgun" in html
    assert "OFF 1 against DEF 9 hits 1/20" in html and "still 19/20" in html
