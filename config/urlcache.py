"""`{% url %}` and `reverse()` remembered: a page reverses dozens of URLs at ~50-80 µs each.

What reverse() returns depends only on the URLconf (fixed for the life of a process), the
script prefix, the view name, the arguments and the current namespace, so the answer is
kept per process for those, bounded. Arguments that are not plain ints or strings (rare)
are reversed every time. Installed for every template as a builtin (settings TEMPLATES),
where it replaces Django's own `url` tag with the same syntax and behaviour.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url_tag
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf
from django.urls import reverse as django_reverse
from django.utils.html import conditional_escape

register = template.Library()
PLAIN = (int, str)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs) -> None:
    # Tests may swap the URLconf (override_settings), as Django's own caches allow.
    if setting == "ROOT_URLCONF":
        _reverse.cache_clear()


@lru_cache(maxsize=8192)
def _reverse(urlconf, prefix: str, view_name: str, args: tuple, kwargs: tuple, app) -> str:
    del prefix  # part of the key only: reverse() reads it itself
    return django_reverse(
        view_name, urlconf=urlconf, args=args, kwargs=dict(kwargs), current_app=app
    )


def reverse(view_name, args=(), kwargs=None, current_app=None) -> str:
    """django.urls.reverse for a view name and plain arguments, remembered."""
    kwargs = kwargs or {}
    if isinstance(view_name, str) and all(type(v) in PLAIN for v in (*args, *kwargs.values())):
        return _reverse(
            get_urlconf(),
            get_script_prefix(),
            view_name,
            tuple(args),
            tuple(sorted(kwargs.items())),
            current_app,
        )
    return django_reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)


class CachedURLNode(URLNode):
    # Django's URLNode.render (6.1) but for the reverse() it calls, which Django imports
    # inside that method: compare with it when upgrading Django.
    def render(self, context):
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    """Django's {% url %}, parsed by Django, answered from the remembered reverse()."""
    node = django_url_tag(parser, token)
    return CachedURLNode(node.view_name, node.args, node.kwargs, node.asvar)
