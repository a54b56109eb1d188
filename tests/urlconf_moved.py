"""The project's URLs under /moved/, for tests that swap ROOT_URLCONF."""

from django.urls import include, path

urlpatterns = [path("moved/", include("config.urls"))]
