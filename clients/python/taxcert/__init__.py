"""Python client of the Tax Certificate Data Service: standard library only.

    from taxcert import Client
    client = Client()  # TAXCERT_API_KEY, TAXCERT_BASE_URL from the environment
    rows = list(client.iter_search_certificates(county=["broward"], status=["sold"]))
"""

from .client import DEFAULT_BASE_URL, Client, __version__, to_dataframe
from .errors import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    CursorExpiredError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    TaxcertApiError,
    TaxcertConnectionError,
    TaxcertError,
)
from .operations import OPERATIONS

__all__ = [
    "DEFAULT_BASE_URL",
    "OPERATIONS",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConflictError",
    "CursorExpiredError",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "TaxcertApiError",
    "TaxcertConnectionError",
    "TaxcertError",
    "__version__",
    "to_dataframe",
]
