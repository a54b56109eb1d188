"""The stateless pricing API: POST a muster-army/1 body, get the priced army back."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import points
from accounts import throttle
from points.armyfile import MAX_FILE_BYTES

MAX_BODY_BYTES = MAX_FILE_BYTES
WINDOW_SECONDS = 60


# No cookies, no session: CSRF protects cookie-authenticated writes, and this one
# neither reads a cookie nor writes anything (but a request count, keyed by address).
@csrf_exempt
@require_POST
def price(request: HttpRequest) -> JsonResponse:
    # Anyone may call it, and a 1 MB army costs up to ~0.9 s to price: counted per
    # address before the body is even read (in the database, so every worker counts).
    limit = settings.PRICE_API_PER_MINUTE
    key = f"api-price:addr:{throttle.client_address(request)}"
    found = throttle.strike(key, limit, WINDOW_SECONDS)
    if found.count > limit:
        wait = throttle.retry_after(found)
        response = JsonResponse(
            {"error": f"too many requests: at most {limit} a minute; try again in {wait} s"},
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
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
