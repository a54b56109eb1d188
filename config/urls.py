from django.contrib import admin
from django.urls import include, path

from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ, healthz
from armies import api, lists

# A database that is down or stuck answers 503 from wherever it failed (config/errors.py).
handler500 = "config.errors.server_error"

# The admin's log-in page counts and refuses repeated failures like the main one.
admin.site.login_form = AdminLoginForm

# Each app's pages in its own namespace (armies, library, table, sharing, odds, rules,
# accounts), at the addresses SPEC 5 lists: table mode's and sharing's pages of an army
# sit under /armies/<pk>/ beside the builder's (tests/test_urls.py checks every one).
urlpatterns = [
    path("", lists.home, name="home"),
    path(HEALTHZ.removeprefix("/"), healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("armies/", include("armies.urls")),
    path("library/", include("armies.library_urls")),
    path("", include("sharing.urls")),  # share links, prints, exports, matchups
    path("", include("table.urls")),  # table mode and the acquisition rolls
    path("", include("odds.urls")),  # the calculators, before rules/: /rules/<system>/fight/
    path("api/price/", api.price, name="api-price"),
    path("api/fight/", api.fight, name="api-fight"),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]
