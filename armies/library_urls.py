from django.urls import path

from armies import views

app_name = "library"
urlpatterns = [
    path("", views.library, name="list"),
    path("new/<str:kind>/", views.library_new, name="new"),
    path("new/<str:kind>/<str:system>/", views.library_new, name="new-for-system"),
    path("<int:pk>/", views.library_edit, name="edit"),
    path("<int:pk>/delete/", views.library_delete, name="delete"),
]
