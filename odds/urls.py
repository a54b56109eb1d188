"""The calculators' pages, in the `odds` namespace. They sit among the rules pages
(/rules/…), so config/urls.py lists them before rules/, and the doors to the fight
calculator from an army's cards keep the army's addresses."""

from django.urls import path

from odds import fights, table_1

app_name = "odds"
urlpatterns = [
    path("rules/gem/table-1/", table_1.table_1, name="table-1"),
    path("rules/<slug:system>/fight/", fights.fight, name="fight"),
    # "Odds against…" on a roster, a card sheet or the share page (odds/fights.py).
    path("armies/<int:pk>/units/<int:unit_pk>/fight/", fights.army_unit_fight, name="unit-fight"),
    path(
        "s/<token:token>/units/<int:unit_pk>/fight/",
        fights.shared_unit_fight,
        name="shared-unit-fight",
    ),
]
