from django.urls import path

from rules import views

app_name = "rules"

urlpatterns = [
    # Listed first so "interpretations" is never read as a system name.
    path("interpretations/", views.interpretations, name="interpretations"),
    path("d10/chances/", views.d10_chances, name="d10-chances"),
    path("<slug:system>/", views.system_page, name="system"),
]
