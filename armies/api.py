"""The stateless APIs: POST a muster-army/1 body and get the priced army back; POST a
fight and get its exact odds (SPEC 3.8)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import points
from accounts import throttle
from points import fights
from points.armyfile import MAX_FILE_BYTES

MAX_BODY_BYTES = MAX_FILE_BYTES
MAX_FIGHT_BYTES = 64 * 1024  # two units and their conditions
WINDOW_SECONDS = 60


# No cookies, no session: CSRF protects cookie-authenticated writes, and this one
# neither reads a cookie nor writes anything (but a request count, keyed by address).
@csrf_exempt
@require_POST
def price(request: HttpRequest) -> JsonResponse:
    # Anyone may call it, and a 1 MB army costs up to ~0.9 s to price: counted per
    # address before the body is even read (in the database, so every worker counts).
    refused = _over_limit(request, "api-price")
    if refused is not None:
        return refused
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


def _over_limit(request: HttpRequest, name: str) -> JsonResponse | None:
    limit = settings.PRICE_API_PER_MINUTE
    key = f"{name}:addr:{throttle.client_address(request)}"
    found = throttle.strike(key, limit, WINDOW_SECONDS)
    if found.count <= limit:
        return None
    wait = throttle.retry_after(found)
    response = JsonResponse(
        {"error": f"too many requests: at most {limit} a minute; try again in {wait} s"},
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


@csrf_exempt
@require_POST
def fight(request: HttpRequest) -> JsonResponse:
    # The same per-address limit as the price API: a fight costs up to ~200 ms.
    refused = _over_limit(request, "api-fight")
    if refused is not None:
        return refused
    try:
        body = request.body
    except RequestDataTooBig:
        return _fight_too_large()
    if len(body) > MAX_FIGHT_BYTES:
        return _fight_too_large()
    try:
        raw = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return JsonResponse({"error": "body: must be a JSON object", "field": "body"}, status=400)
    try:
        result = fights.compute(fights.read_request(raw))
    except points.ArmyFileError as exc:
        return JsonResponse({"error": str(exc), "field": exc.path}, status=400)
    except fights.TooLarge as exc:
        return JsonResponse({"error": str(exc)}, status=422)
    return JsonResponse(result.to_json())


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _fight_too_large() -> JsonResponse:
    return JsonResponse({"error": "body: must be at most 64 KB", "field": "body"}, status=413)
