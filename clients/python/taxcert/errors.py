"""Typed errors of the Tax Certificate Data Service.

Every error answer of the API is the envelope
``{"error": {"code", "message", "request_id", "details"?}}``; the class raised is chosen by its
``code`` (then by the HTTP status when the code is unknown to this client), never by the message,
whose wording may change.
"""

from typing import Any, Dict, Mapping, Optional, Type


class TaxcertError(Exception):
    """Anything this client raises on purpose."""


class TaxcertConnectionError(TaxcertError):
    """The API could not be reached, or did not answer in time, after every retry."""


class TaxcertApiError(TaxcertError):
    """An error answer of the API: its status, the envelope's code, message and request_id."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str],
        details: Optional[Dict[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" (request_id {request_id})" if request_id else ""))
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details: Dict[str, Any] = details or {}
        self.headers: Dict[str, str] = {k.lower(): v for k, v in (headers or {}).items()}


class BadRequestError(TaxcertApiError):
    """400: a parameter or a field is wrong; ``details["issues"]`` names each one."""

    @property
    def issues(self) -> Any:
        return self.details.get("issues", [])


class AuthenticationError(TaxcertApiError):
    """401: the API key is missing, unknown or revoked."""


class PaymentRequiredError(TaxcertApiError):
    """402: the account has no credits left."""


class PermissionDeniedError(TaxcertApiError):
    """403: the plan does not include this feature, or a plan limit is reached."""


class NotFoundError(TaxcertApiError):
    """404."""


class ConflictError(TaxcertApiError):
    """409: an Idempotency-Key reused with another request, or whose first request still runs."""


class CursorExpiredError(TaxcertApiError):
    """410: a change-feed cursor older than the events kept."""


class RateLimitError(TaxcertApiError):
    """429: per-minute window full, too many requests in flight, or the monthly quota used up."""

    @property
    def retry_after(self) -> Optional[str]:
        """The Retry-After header as sent (seconds, or an HTTP date)."""
        return self.headers.get("retry-after")


class ServerError(TaxcertApiError):
    """5xx: the service failed or is unavailable."""


_BY_CODE: Dict[str, Type[TaxcertApiError]] = {
    "bad_request": BadRequestError,
    "unauthorized": AuthenticationError,
    "payment_required": PaymentRequiredError,
    "csv_disabled": PermissionDeniedError,
    "mcp_disabled": PermissionDeniedError,
    "webhooks_disabled": PermissionDeniedError,
    "limit_reached": PermissionDeniedError,
    "rest_disabled": PermissionDeniedError,
    "not_found": NotFoundError,
    "idempotency_conflict": ConflictError,
    "cursor_expired": CursorExpiredError,
    "rate_limited": RateLimitError,
    "internal_error": ServerError,
    "service_unavailable": ServerError,
}

_BY_STATUS: Dict[int, Type[TaxcertApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: CursorExpiredError,
    429: RateLimitError,
}


def error_class(status: int, code: str) -> Type[TaxcertApiError]:
    """The class for an error answer: by its code, else by its status."""
    found = _BY_CODE.get(code) or _BY_STATUS.get(status)
    if found is not None:
        return found
    return ServerError if status >= 500 else TaxcertApiError


def api_error(status: int, body: Any, headers: Mapping[str, str]) -> TaxcertApiError:
    """Builds the typed error from an answer's status, parsed body (or None) and headers."""
    envelope = body.get("error") if isinstance(body, dict) else None
    if not isinstance(envelope, dict):
        envelope = {}
    code = envelope.get("code") if isinstance(envelope.get("code"), str) else f"http_{status}"
    message = envelope.get("message") if isinstance(envelope.get("message"), str) else f"HTTP {status}"
    lowered = {k.lower(): v for k, v in headers.items()}
    request_id = envelope.get("request_id") if isinstance(envelope.get("request_id"), str) else lowered.get("x-request-id")
    details = envelope.get("details") if isinstance(envelope.get("details"), dict) else None
    return error_class(status, code)(status, code, message, request_id, details, headers)
