from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.forms import LoginForm, SignupForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome to Muster, {user.username}.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledLoginView(auth_views.LoginView):
    """Django's log-in page, answering 429 while too many recent attempts have failed."""

    authentication_form = LoginForm

    def form_invalid(self, form: LoginForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    # A load balancer takes this node out of rotation when its database is unreachable.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    # Without its cache a node still serves every page, only slower: still 200, so a
    # Redis shared by every node going away does not take them all out of rotation.
    if not _cache_answers():
        return JsonResponse({"status": "degraded", "cache": "unreachable"})
    return JsonResponse({"status": "ok", "cache": "ok"})


def _cache_answers() -> bool:
    # A round trip under a key of this probe's own: a failing cache answers a miss.
    key = f"healthz:{secrets.token_hex(8)}"
    cache.set(key, "ok", 10)
    found = cache.get(key)
    cache.delete(key)
    return found == "ok"
