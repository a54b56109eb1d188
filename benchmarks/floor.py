"""Floor views: how fast any re-price could answer, measured beside the real one.

Not part of the app: `benchmarks/settings.py` routes them, and only `http_bench.py`
serves that. Each takes the re-price partial's own request (its cookies, CSRF token and
posted form) and stops after one more of the steps every save must take, answering the
army's version and nothing else:

- `signed-in`: the middleware, the posted form read, the session, the user and the
  owner's army with its units (remembered per version, as the real save finds them);
- `saved`: and the new version claimed and the unit's new name written, in one
  transaction (what makes two tabs safe);
- `priced`: and the army priced after the edit, answering its total.

The real re-price adds to the last: the unit form's checks, the army priced before the
edit too (to send back only the rows whose rule issues change), and drawing the reply.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from armies.models import StoredUnit, Unit
from armies.views import _claim_version, _selected, army_for_owner
from config.prepared import update_one
from config.urls import urlpatterns as app_urlpatterns

LEVELS = ("signed-in", "saved", "priced")


def _answer(version: int, extra: str = "") -> HttpResponse:
    return HttpResponse(f'<input id="army-version" value="{version}">{extra}')


@require_POST
@login_required
def floor(request: HttpRequest, level: str, pk: int, unit_pk: int) -> HttpResponse:
    if level not in LEVELS:
        raise Http404("No such floor")
    army = army_for_owner(request, pk)
    units = army.stored_units()
    if _selected(units, unit_pk) is None:
        raise Http404("No such unit in this army")
    name = request.POST.get("name", "")
    if level == "signed-in":
        return _answer(army.version)
    with transaction.atomic():
        if not _claim_version(request, army):
            return HttpResponse("stale version", status=409)
        update_one(Unit, unit_pk, {"name": name})
    units = [
        StoredUnit(u.pk, name, u.quantity, u.profile_text) if u.pk == unit_pk else u for u in units
    ]
    army.remember_units(units)
    if level == "saved":
        return _answer(army.version)
    return _answer(army.version, str(army.price(units).total))


urlpatterns = [path("floor/<slug:level>/<int:pk>/<int:unit_pk>/", floor), *app_urlpatterns]
