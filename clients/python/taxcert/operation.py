"""How an operation is sent: the entries of the generated table OPERATIONS (operations.py)."""

from typing import NamedTuple, Optional, Tuple


class Param(NamedTuple):
    """One argument of an operation's method: its Python name, its name on the wire and where it goes."""

    py: str
    wire: str
    #: "path", "query", "header" or "body".
    where: str
    required: bool = False
    #: A list in the query as repeated keys (county=a&county=b), OpenAPI's form style with explode.
    explode: bool = True


class Operation(NamedTuple):
    operation_id: str
    method: str
    path: str
    params: Tuple[Param, ...]
    #: "offset" for lists paged by limit and offset, "after" for the change feed's cursor, None otherwise.
    paging: Optional[str] = None
    #: The largest `limit` the operation takes: the page size of its iterator.
    page_size: Optional[int] = None
    #: The operation also answers text/csv (format=csv).
    csv: bool = False
    #: What the operation answers: JSON, or a calendar's or a bulk file's own type.
    accept: str = "application/json"
