from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ, healthz
from armies import api
from armies import urls as building
from sharing import urls as sharing
from table import urls as table

# A database that is down or stuck answers 503 from wherever it failed (config/errors.py).
handler500 = "config.errors.server_error"

# The admin's log-in page counts and refuses repeated failures like the main one.
admin.site.login_form = AdminLoginForm

# One `armies` namespace for every page of an army, whichever app draws it: building
# (armies/), the table (table/), sharing and printing (sharing/). URL names never moved.
army_pages = building.urlpatterns + table.army_urlpatterns + sharing.army_urlpatterns

urlpatterns = [
    path("", account_views.home, name="home"),
    path(HEALTHZ.removeprefix("/"), healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("armies/", include((army_pages, building.app_name))),
    path("library/", include("armies.library_urls")),
    path("", include(sharing)),  # share links, prints, exports, matchups
    path("", include(table)),  # the table through a share link: play, rolls
    path("", include("odds.urls")),  # the calculators, before rules/: /rules/<system>/fight/
    path("api/price/", api.price, name="api-price"),
    path("api/fight/", api.fight, name="api-fight"),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]
