"""Sharing, printing and exports, in the `sharing` namespace: the owner's doors (under
/armies/<pk>/), the share link's (under /s/<token>/), the print set, matchups and the
pages kept offline."""

from django.urls import path

from sharing import cards, exports, matchups, offline, shared

app_name = "sharing"
urlpatterns = [
    path("armies/<int:pk>/export.txt", exports.army_text, {"kind": "txt"}, name="export-txt"),
    path("armies/<int:pk>/export.md", exports.army_text, {"kind": "md"}, name="export-md"),
    path(
        "armies/<int:pk>/export.bbcode", exports.army_text, {"kind": "bbcode"}, name="export-bbcode"
    ),
    path("armies/<int:pk>/roster/", shared.army_roster, name="roster"),
    path("armies/<int:pk>/cards/", cards.army_cards, name="cards"),
    path("armies/<int:pk>/share/", shared.share_on, name="share-on"),
    path("armies/<int:pk>/share/off/", shared.share_off, name="share-off"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service-worker"),
    path("offline/", offline.offline_page, name="offline"),
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
    path("matchup/", matchups.matchup, name="matchup"),
]
