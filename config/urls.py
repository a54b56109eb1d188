from django.contrib import admin
from django.urls import include, path, register_converter

from accounts import views as account_views
from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ
from armies import acquisition, api, cards, exports, matchups, offline, play, shared
from armies.converters import ShareToken

register_converter(ShareToken, "token")

# A database that is down or stuck answers 503 from wherever it failed (config/errors.py).
handler500 = "config.errors.server_error"

# The admin's log-in page counts and refuses repeated failures like the main one.
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", account_views.home, name="home"),
    path(HEALTHZ.removeprefix("/"), account_views.healthz, name="healthz"),  # probes.py
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service-worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("accounts/", include("accounts.urls")),
    path("armies/", include("armies.urls")),
    path("library/", include("armies.library_urls")),
    path("s/<token:token>/", shared.shared, name="shared"),
    path("s/<token:token>/roster/", shared.shared_roster, name="shared-roster"),
    path("s/<token:token>/export.txt", exports.shared_text, {"kind": "txt"}, name="shared-txt"),
    path("s/<token:token>/export.md", exports.shared_text, {"kind": "md"}, name="shared-md"),
    path(
        "s/<token:token>/export.bbcode",
        exports.shared_text,
        {"kind": "bbcode"},
        name="shared-bbcode",
    ),
    path("s/<token:token>/cards/", cards.shared_cards, name="shared-cards"),
    path("print/<slug:system>/blank-cards/", cards.blank_cards, name="blank-cards"),
    path("print/<slug:system>/quick-reference/", cards.quick_reference, name="quick-reference"),
    path("s/<token:token>/fork/", shared.fork, name="fork"),
    path("s/<token:token>/play/", play.shared_play, name="shared-play"),
    path(
        "s/<token:token>/play/games/<int:number>/",
        play.shared_earlier_game,
        name="shared-play-game",
    ),
    path("s/<token:token>/roll/", acquisition.shared_roll, name="shared-roll"),
    path(
        "s/<token:token>/roll/<int:record_pk>/", acquisition.shared_roll, name="shared-roll-record"
    ),
    path(
        "s/<token:token>/roll/<int:record_pk>/seed/",
        acquisition.add_opponent_seed,
        name="shared-roll-seed",
    ),
    path("matchup/", matchups.matchup, name="matchup"),
    path("api/price/", api.price, name="api-price"),
    path("api/fight/", api.fight, name="api-fight"),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]
