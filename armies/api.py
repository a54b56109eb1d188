"""The stateless pricing API: POST a muster-army/1 body, get the priced army back."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import points
from points.armyfile import MAX_FILE_BYTES

MAX_BODY_BYTES = MAX_FILE_BYTES


# No cookies, no session: CSRF protects cookie-authenticated writes, and this one
# neither reads a cookie nor writes anything.
@csrf_exempt
@require_POST
def price(request: HttpRequest) -> JsonResponse:
    try:
        declared = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        declared = 0
    if declared > MAX_BODY_BYTES:
        return _too_large()
    try:
        body = request.body
    except RequestDataTooBig:
        return _too_large()
    if len(body) > MAX_BODY_BYTES:
        return _too_large()
    try:
        army = points.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return JsonResponse({"error": "body: must be UTF-8 encoded JSON"}, status=400)
    except points.ArmyFileError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(points.price_army(army).to_json())


def _too_large() -> JsonResponse:
    return JsonResponse({"error": "body: must be at most 1 MB"}, status=413)
