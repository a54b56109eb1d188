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
