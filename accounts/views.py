from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, translate_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import services
from accounts.forms import LoginForm, SignupForm
from accounts.http import HtmxHttpRequest


def signup(request: HtmxHttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        # The language they signed up in is theirs until they choose another.
        services.choose_language(user, get_language())
        messages.success(request, _("Welcome to Muster, %(name)s.") % {"name": user.username})
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class ThrottledLoginView(auth_views.LoginView):
    """Django's log-in page, answering 429 while too many recent attempts have failed, and
    going on in the player's own language (kept on their account) from any device."""

    authentication_form = LoginForm

    def form_valid(self, form: LoginForm) -> HttpResponse:
        response = super().form_valid(form)
        language = services.language_of(form.get_user())
        if not language:
            return response
        return _in_language(translate_url(response.url, language), language)

    def form_invalid(self, form: LoginForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response


@require_POST
def choose_language(request: HtmxHttpRequest) -> HttpResponse:
    """The switcher on every page: the same page (`next`) in the language chosen, kept in
    the language cookie, and on the account of a signed-in player."""
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("home")
    language = request.POST.get("language", "")
    if not services.known_language(language):
        return redirect(back)
    if request.user.is_authenticated:
        services.choose_language(request.user, language)
    return _in_language(translate_url(back, language), language)


def _in_language(url: str, language: str) -> HttpResponse:
    # The cookie Django's LocaleMiddleware and config.middleware.LanguageMiddleware read.
    response = HttpResponseRedirect(url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
