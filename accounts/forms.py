from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts import throttle


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        help_texts = {"email": _("Optional: only used to reset a forgotten password.")}


class ThrottledLoginMixin:
    """Refuse to check passwords for a name or address with too many recent failures.

    The same message whether or not the account exists, so it reveals nothing.
    """

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or self.request is None:
            return super().clean()
        if not throttle.take_attempt(self.request, username):
            raise forms.ValidationError(
                throttle.MESSAGE,
                code="throttled",
                params={"minutes": throttle.LOCKOUT_SECONDS // 60},
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError as exc:
            # A wrong password stays counted; anything else gives its attempt back.
            if getattr(exc, "code", None) != "invalid_login":
                throttle.give_back(self.request, username)
            raise
        throttle.give_back(self.request, username)
        throttle.clear(username)
        return cleaned


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    """The admin's log-in page is a second door to the same accounts: same throttle."""
