"""HTTP over urllib.request: one request, its retries, and the typed error of a refusal."""

import email.utils
import http.client
import json
import logging
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Tuple

from .errors import TaxcertApiError, TaxcertConnectionError, api_error

logger = logging.getLogger("taxcert")

#: Statuses worth a second try: the request did not take effect (408, 429) or the server failed (5xx).
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
#: Methods that change nothing, so any of them may be sent again.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date; None if neither."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = datetime.fromtimestamp(time.time() if now is None else now, tz=timezone.utc)
    return max(0.0, (when - current).total_seconds())


class Retry(NamedTuple):
    """What a retry's log record carries (``record.taxcert_retry``), for callers that watch retries."""

    method: str
    path: str
    #: 1 for the first retry.
    attempt: int
    #: Seconds waited before it.
    wait: float
    #: The refused attempt's status; None for a connection error.
    status: Optional[int]
    #: The refused attempt's Retry-After header as sent.
    retry_after: Optional[str]


class Answer:
    """A 2xx answer: status, headers (lower-cased names) and the body as bytes."""

    def __init__(self, status: int, headers: Dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None

    def text(self) -> str:
        return self.body.decode("utf-8")


class Transport:
    """Sends requests with the key, retrying what may be retried with jittered exponential backoff."""

    def __init__(
        self,
        api_key: str,
        base_url: str,
        timeout: float,
        max_retries: int,
        backoff: float,
        max_backoff: float,
        max_retry_after: float,
        user_agent: str,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.user_agent = user_agent
        self.sleep = sleep
        # No proxies from the environment's settings unless asked for: a notebook's HTTP_PROXY
        # is for the web, and the key must not travel through it unannounced.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def url(self, path: str, query: Optional[List[Tuple[str, str]]] = None) -> str:
        target = self.base_url + path
        if query:
            target += "?" + urllib.parse.urlencode(query)
        return target

    def request(
        self,
        method: str,
        path: str,
        query: Optional[List[Tuple[str, str]]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        accept: str = "application/json",
    ) -> Answer:
        """One call: retried on 408, 429, 5xx and connection errors when it is safe to send again.

        A write is safe to send again only under an Idempotency-Key (the server answers a repeat
        with the first answer), so a write gets one here, the caller's or a new uuid4, and keeps
        it across its retries.
        """
        method = method.upper()
        sent: Dict[str, str] = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": accept,
            "User-Agent": self.user_agent,
        }
        data: Optional[bytes] = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            sent["Content-Type"] = "application/json"
        if method not in SAFE_METHODS:
            sent["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        sent.update(headers or {})
        retriable = method in SAFE_METHODS or "Idempotency-Key" in sent
        target = self.url(path, query)

        attempt = 0
        while True:
            try:
                return self._send(method, target, data, sent)
            except TaxcertApiError as err:
                wait = self._wait_for(err, attempt) if retriable and attempt < self.max_retries else None
                if wait is None:
                    raise
                logger.info(
                    "retrying %s %s after %.2fs: %s %s (request_id %s)",
                    method,
                    path,
                    wait,
                    err.status,
                    err.code,
                    err.request_id,
                    extra={"taxcert_retry": Retry(method, path, attempt + 1, wait, err.status, err.headers.get("retry-after"))},
                )
            except TaxcertConnectionError as err:
                if not retriable or attempt >= self.max_retries:
                    raise
                wait = self._backoff(attempt)
                logger.info(
                    "retrying %s %s after %.2fs: %s",
                    method,
                    path,
                    wait,
                    err,
                    extra={"taxcert_retry": Retry(method, path, attempt + 1, wait, None, None)},
                )
            self.sleep(wait)
            attempt += 1

    def _backoff(self, attempt: int) -> float:
        """Full jitter: a random wait up to backoff * 2^attempt, capped at max_backoff."""
        return random.uniform(0, min(self.max_backoff, self.backoff * (2**attempt)))

    def _wait_for(self, err: TaxcertApiError, attempt: int) -> Optional[float]:
        """How long to wait before retrying this error, or None when it is not retried."""
        in_progress = err.status == 409 and err.details.get("reason") == "in_progress"
        if err.status not in RETRY_STATUSES and not in_progress:
            return None
        jitter = self._backoff(attempt)
        told = parse_retry_after(err.headers.get("retry-after"))
        if told is None:
            return jitter
        # A monthly quota's Retry-After runs to the next billing cycle: waiting that long inside a call helps no one.
        if told > self.max_retry_after:
            return None
        # At least what the server said (the window has no room before), plus a little jitter so
        # clients that were refused together do not all come back in the same instant.
        return told + min(jitter, 1.0)

    def _send(self, method: str, target: str, data: Optional[bytes], headers: Mapping[str, str]) -> Answer:
        request = urllib.request.Request(target, data=data, method=method, headers=dict(headers))
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return Answer(response.status, _lower(response.headers.items()), response.read())
        except urllib.error.HTTPError as refused:
            with refused:
                raw = refused.read()
                answered = _lower(refused.headers.items()) if refused.headers else {}
            try:
                parsed = json.loads(raw.decode("utf-8")) if raw else None
            except (UnicodeDecodeError, ValueError):
                parsed = None
            raise api_error(refused.code, parsed, answered) from None
        except (urllib.error.URLError, http.client.HTTPException, socket.timeout, ConnectionError, TimeoutError) as failed:
            reason = getattr(failed, "reason", failed)
            raise TaxcertConnectionError(f"{method} {target}: {reason}") from failed


def _lower(items: Any) -> Dict[str, str]:
    return {str(k).lower(): str(v) for k, v in items}
