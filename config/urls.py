from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ, healthz
from accounts.views import choose_language
from armies import api, lists

# A database that is down or stuck answers 503 from wherever it failed (config/errors.py).
handler500 = "config.errors.server_error"
handler404 = "config.errors.page_not_found"

# The admin's log-in page counts and refuses repeated failures like the main one.
admin.site.login_form = AdminLoginForm

# The words static/js/*.js show, in the page's language (gettext() in the scripts), asked
# for by every page: answered 304 until the server restarts, which a new release does.
STARTED = timezone.now()
javascript_catalog = last_modified(lambda request, **kwargs: STARTED)(JavaScriptCatalog.as_view())

# Each app's pages in its own namespace (armies, library, table, sharing, odds, rules,
# accounts), at the addresses SPEC 5 lists: table mode's and sharing's pages of an army
# sit under /armies/<pk>/ beside the builder's (tests/test_urls.py checks every one).
# Pages are drawn in English at those addresses and in German and French under /de/ and
# /fr/ (SPEC 5, "Languages"); the health probe, the API (which follows Accept-Language)
# and the admin have one address each.
urlpatterns = [
    path(HEALTHZ.removeprefix("/"), healthz, name="healthz"),
    path("api/price/", api.price, name="api-price"),
    path("api/fight/", api.fight, name="api-fight"),
    path("admin/", admin.site.urls),
    *i18n_patterns(
        path("", lists.home, name="home"),
        path("language/", choose_language, name="language"),
        path("jsi18n/", javascript_catalog, name="javascript-catalog"),
        path("accounts/", include("accounts.urls")),
        path("armies/", include("armies.urls")),
        path("library/", include("armies.library_urls")),
        path("", include("sharing.urls")),  # share links, prints, exports, matchups
        path("", include("table.urls")),  # table mode and the acquisition rolls
        path("", include("odds.urls")),  # the calculators, before rules/: /rules/<system>/fight/
        path("rules/", include("rules.urls")),
        prefix_default_language=False,
    ),
]
