"""The stateless APIs: POST a muster-army/1 body and get the priced army back; POST a
fight and get its exact odds (SPEC 3.8)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import points
from accounts import throttle
from accounts.http import HtmxHttpRequest
from accounts.models import Strikes
from points import fights
from points.armyfile import MAX_FILE_BYTES
from rules.words import say, say_error

MAX_BODY_BYTES = MAX_FILE_BYTES
WINDOW_SECONDS = 60


def _limited_body(
    request: HtmxHttpRequest, api: str, max_bytes: int, size: str
) -> bytes | JsonResponse:
    """The posted body, or the refusal to send: each address has a request count and a
    budget of bytes a minute per API, both spent before the body is even read (in the
    database, so every worker counts together)."""
    address = throttle.client_address(request)
    limit = settings.PRICE_API_PER_MINUTE
    found = throttle.strike(f"api-{api}:addr:{address}", limit, WINDOW_SECONDS)
    if found.count > limit:
        return _too_many(found, f"at most {limit} requests a minute")
    try:
        declared = max(0, int(request.headers.get("Content-Length") or 0))
    except ValueError:
        declared = 0
    too_large = JsonResponse(
        {"error": f"body: must be at most {size}", "field": "body"}, status=413
    )
    if declared > max_bytes:
        return too_large
    budget = settings.PRICE_API_BYTES_PER_MINUTE
    bytes_key = f"api-{api}:bytes:{address}"
    full = throttle.spend(bytes_key, declared, budget, WINDOW_SECONDS)
    if full is not None:
        return _too_many(full, f"at most {budget:,} bytes a minute")
    try:
        body = request.body
    except RequestDataTooBig:
        return too_large
    if len(body) > max_bytes:
        return too_large
    if len(body) > declared:  # no (or a short) Content-Length: spend what was read
        full = throttle.spend(bytes_key, len(body) - declared, budget, WINDOW_SECONDS)
        if full is not None:
            return _too_many(full, f"at most {budget:,} bytes a minute")
    return body


# Anyone may call it, and pricing costs CPU in proportion to what is posted. No cookies,
# no session: CSRF protects cookie-authenticated writes, and this one neither reads a
# cookie nor writes anything (but its counts, keyed by address).
@csrf_exempt
@require_POST
def price(request: HtmxHttpRequest) -> JsonResponse:
    body = _limited_body(request, "price", MAX_BODY_BYTES, "1 MB")
    if isinstance(body, JsonResponse):
        return body
    try:
        army = points.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return JsonResponse({"error": "body: must be UTF-8 encoded JSON"}, status=400)
    except points.ArmyFileError as exc:
        return JsonResponse({"error": say_error(exc)}, status=400)
    # Field names and codes stay the file's; messages, lines and notes are said (rules.words).
    return JsonResponse(points.price_army(army).to_json(say))


def _too_many(found: Strikes, what: str) -> JsonResponse:
    wait = throttle.retry_after(found)
    response = JsonResponse(
        {"error": f"too many requests: {what} from one address; try again in {wait} s"},
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


MAX_FIGHT_BYTES = 64 * 1024  # two units and their conditions


# As the price API: no cookie read, nothing written but the address's counts. A fight
# costs up to ~200 ms of CPU; its counts are kept apart from the price API's.
@csrf_exempt
@require_POST
def fight(request: HtmxHttpRequest) -> JsonResponse:
    body = _limited_body(request, "fight", MAX_FIGHT_BYTES, "64 KB")
    if isinstance(body, JsonResponse):
        return body
    try:
        raw = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return JsonResponse({"error": "body: must be a JSON object", "field": "body"}, status=400)
    try:
        result = fights.compute(fights.read_request(raw))
    except points.ArmyFileError as exc:
        return JsonResponse({"error": say_error(exc), "field": exc.path}, status=400)
    except fights.TooLarge as exc:
        # The largest quantities of the same units that are answered (SPEC 3.8), if any.
        largest = dict(zip(("a", "b"), exc.largest, strict=True)) if exc.largest else None
        return JsonResponse({"error": say(exc.message), "largest": largest}, status=422)
    return JsonResponse(result.to_json(say))


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")
