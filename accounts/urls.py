from django.urls import include, path

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    # Ahead of Django's own log-in view, which the include below would otherwise serve.
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("", include("django.contrib.auth.urls")),
]
