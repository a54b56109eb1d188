from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ
from armies import acquisition, api, cards, exports, matchups, play, shared

# The admin's log-in page counts and refuses repeated failures like the main one.
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", account_views.home, name="home"),
    path(HEALTHZ.removeprefix("/"), account_views.healthz, name="healthz"),  # probes.py
    path("accounts/", include("accounts.urls")),
    path("armies/", include("armies.urls")),
    path("library/", include("armies.library_urls")),
    path("s/<str:token>/", shared.shared, name="shared"),
    path("s/<str:token>/roster/", shared.shared_roster, name="shared-roster"),
    path("s/<str:token>/export.txt", exports.shared_text, {"kind": "txt"}, name="shared-txt"),
    path("s/<str:token>/export.md", exports.shared_text, {"kind": "md"}, name="shared-md"),
    path(
        "s/<str:token>/export.bbcode", exports.shared_text, {"kind": "bbcode"}, name="shared-bbcode"
    ),
    path("s/<str:token>/cards/", cards.shared_cards, name="shared-cards"),
    path("print/<slug:system>/blank-cards/", cards.blank_cards, name="blank-cards"),
    path("print/<slug:system>/quick-reference/", cards.quick_reference, name="quick-reference"),
    path("s/<str:token>/fork/", shared.fork, name="fork"),
    path("s/<str:token>/play/", play.shared_play, name="shared-play"),
    path(
        "s/<str:token>/play/games/<int:number>/", play.shared_earlier_game, name="shared-play-game"
    ),
    path("s/<str:token>/roll/", acquisition.shared_roll, name="shared-roll"),
    path("s/<str:token>/roll/<int:record_pk>/", acquisition.shared_roll, name="shared-roll-record"),
    path(
        "s/<str:token>/roll/<int:record_pk>/seed/",
        acquisition.add_opponent_seed,
        name="shared-roll-seed",
    ),
    path("matchup/", matchups.matchup, name="matchup"),
    path("api/price/", api.price, name="api-price"),
    path("api/fight/", api.fight, name="api-fight"),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]
