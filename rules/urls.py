from django.urls import path

from rules import odds, views

app_name = "rules"

urlpatterns = [
    # Listed first so "interpretations" is never read as a system name.
    path("interpretations/", views.interpretations, name="interpretations"),
    path("gem/table-1/", odds.table_1, name="table-1"),
    path("d10/chances/", odds.d10_chances, name="d10-chances"),
    path("<slug:system>/fight/", views.fight, name="fight"),
    path("<slug:system>/", views.system_page, name="system"),
]
