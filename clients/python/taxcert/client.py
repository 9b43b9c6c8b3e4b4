"""The client: the generated methods (operations.py) over one retrying HTTP transport."""

import os
import urllib.parse
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple

from .operation import Operation
from .operations import OPERATIONS, Operations
from .transport import Answer, Transport

__version__ = "0.1.0"

DEFAULT_BASE_URL = "http://127.0.0.1:3000"


class Client(Operations):
    """A client of the Tax Certificate Data Service.

    >>> client = Client(api_key="tc_live_...", base_url="https://api.example.com")
    >>> page = client.search_certificates(county=["broward"], limit=10)
    >>> for row in client.iter_search_certificates(county=["broward"], status=["sold"]):
    ...     print(row["id"], row["face_amount"])

    The key is sent as ``Authorization: Bearer <key>``. GETs, and writes (each sent under an
    ``Idempotency-Key``: the caller's, or a new uuid4 kept across the retries), are retried on
    408, 429, 5xx and connection errors, up to ``max_retries`` times, after a jittered
    exponential backoff or the ``Retry-After`` the API sent (when it is at most
    ``max_retry_after`` seconds; a longer one, such as a monthly quota's, raises at once).
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        *,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        max_retry_after: float = 60.0,
        user_agent: Optional[str] = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("TAXCERT_API_KEY")
        if not key:
            raise ValueError("no API key: pass api_key= or set TAXCERT_API_KEY")
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self._transport = Transport(
            api_key=key,
            base_url=base_url or os.environ.get("TAXCERT_BASE_URL") or DEFAULT_BASE_URL,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            max_backoff=max_backoff,
            max_retry_after=max_retry_after,
            user_agent=user_agent or f"taxcert-python/{__version__}",
        )

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def request(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        *,
        idempotency_key: Optional[str] = None,
        accept: str = "application/json",
    ) -> Any:
        """Any call by method and path (for what the generated methods do not cover, as format=geojson)."""
        answer = self._transport.request(
            method, path, _query(query or {}, explode=True), body, idempotency_key=idempotency_key, accept=accept
        )
        return _decode(answer)

    def paginate(self, operation: str, **params: Any) -> Iterator[Any]:
        """Every row of a list operation, page after page: ``paginate("search_certificates", county=["broward"])``.

        ``operation`` is the method's name or the operationId. Offset-paged lists are walked in the
        largest pages the operation allows (unless ``limit`` is given) until ``has_more`` is false;
        the change feed follows ``pagination.next_after``.
        """
        return self._rows(_resolve(operation), params)

    # What the generated methods call.

    def _call(self, name: str, params: Dict[str, Any]) -> Any:
        op = OPERATIONS[name]
        return _decode(self._send(op, params, accept=op.accept))

    def _csv(self, name: str, params: Dict[str, Any]) -> str:
        return self._send(OPERATIONS[name], {**params, "format": "csv"}, accept="text/csv").text()

    def _rows(self, name: str, params: Dict[str, Any]) -> Iterator[Any]:
        op = OPERATIONS[name]
        if op.paging is None:
            raise ValueError(f"{name} is not a list: it has no pages to walk")
        page_params = {k: v for k, v in params.items() if v is not None}
        page_params.setdefault("limit", op.page_size)
        if op.paging == "offset":
            offset = int(page_params.pop("offset", 0) or 0)
            while True:
                page = self._call(name, {**page_params, "offset": offset})
                rows = page.get("data") or []
                yield from rows
                if not rows or not page.get("pagination", {}).get("has_more"):
                    return
                offset += len(rows)
        else:
            after = page_params.pop("after", None)
            while True:
                page = self._call(name, {**page_params, "after": after})
                rows = page.get("data") or []
                yield from rows
                pagination = page.get("pagination", {})
                after = pagination.get("next_after")
                if not rows or not pagination.get("has_more") or not after:
                    return

    def _send(self, op: Operation, params: Mapping[str, Any], accept: str) -> Answer:
        known = {p.py for p in op.params}
        unknown = sorted(k for k, v in params.items() if k not in known and v is not None)
        if unknown:
            raise TypeError(f"{op.operation_id} takes no parameter {', '.join(unknown)}")
        path = op.path
        query: List[Tuple[str, str]] = []
        headers: Dict[str, str] = {}
        body: Any = None
        idempotency_key: Optional[str] = None
        for p in op.params:
            value = params.get(p.py)
            if value is None:
                if p.required:
                    raise TypeError(f"{op.operation_id} needs {p.py}")
                continue
            if p.where == "path":
                path = path.replace("{" + p.wire + "}", urllib.parse.quote(_text(value), safe=""))
            elif p.where == "query":
                query.extend(_query({p.wire: value}, explode=p.explode))
            elif p.where == "body":
                body = value
            elif p.py == "idempotency_key":
                idempotency_key = str(value)
            else:
                headers[p.wire] = _text(value)
        return self._transport.request(op.method, path, query, body, headers, idempotency_key, accept)


def _resolve(operation: str) -> str:
    if operation in OPERATIONS:
        return operation
    for name, op in OPERATIONS.items():
        if op.operation_id == operation:
            return name
    raise ValueError(f"no operation {operation!r}")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _query(params: Mapping[str, Any], explode: bool) -> List[Tuple[str, str]]:
    """Query pairs: a list as repeated keys (explode) or one comma-joined value; None left out."""
    pairs: List[Tuple[str, str]] = []
    for key, value in params.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple, set, frozenset)):
            values = [_text(v) for v in value]
            if explode:
                pairs.extend((key, v) for v in values)
            else:
                pairs.append((key, ",".join(values)))
        else:
            pairs.append((key, _text(value)))
    return pairs


def _decode(answer: Answer) -> Any:
    """JSON parsed, other text as str (a calendar, CSV), anything else as bytes (a bulk file)."""
    kind = answer.content_type
    if kind == "application/json" or kind.endswith("+json"):
        return answer.json()
    if kind.startswith("text/"):
        return answer.text()
    return answer.body


def to_dataframe(rows: Iterable[Mapping[str, Any]]) -> Any:
    """A pandas DataFrame of rows (a page's ``data`` or an iterator), nested objects flattened to ``a.b`` columns.

    pandas is optional (``pip install 'taxcert[pandas]'``); without it this raises ImportError
    saying so, and the rest of the client works as before.
    """
    try:
        import pandas
    except ImportError as missing:
        raise ImportError(
            "taxcert.to_dataframe needs pandas, which is not installed: "
            "pip install 'taxcert[pandas]' (or pandas itself). The rest of the client works without it."
        ) from missing
    return pandas.json_normalize(list(rows))
