from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.forms import SignupForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Muster, {user.username}.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


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
    return JsonResponse({"status": "ok"})
