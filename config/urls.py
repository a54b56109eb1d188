from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from accounts.forms import AdminLoginForm
from accounts.probes import HEALTHZ
from armies import api, matchups, shared

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
    path("s/<str:token>/fork/", shared.fork, name="fork"),
    path("matchup/", matchups.matchup, name="matchup"),
    path("api/price/", api.price, name="api-price"),
    path("rules/", include("rules.urls")),
    path("admin/", admin.site.urls),
]
