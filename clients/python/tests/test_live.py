"""The client against the running API (test/integration/clients/python.test.ts starts it).

Environment: TAXCERT_BASE_URL, TAXCERT_API_KEY (an Enterprise key, the sample data loaded:
Broward's certificates, Alachua's holders, a webhook endpoint, a bulk file) and
TAXCERT_LIMITED_KEY (a client allowed 2 requests per rate-limit window). What each test saw
goes into FACTS, which run_live.py prints for the calling test to compare with the API.
"""

import hashlib
import logging
import os
import sys
import time
import unittest
import uuid
from typing import Any, Callable, Dict, List
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import taxcert  # noqa: E402
from proxy import FailingProxy  # noqa: E402
from taxcert.errors import api_error  # noqa: E402
from taxcert.transport import Answer, parse_retry_after  # noqa: E402

BASE_URL = os.environ.get("TAXCERT_BASE_URL", "")
API_KEY = os.environ.get("TAXCERT_API_KEY", "")
LIMITED_KEY = os.environ.get("TAXCERT_LIMITED_KEY", "")
COUNTY = "broward"

FACTS: Dict[str, Any] = {}


def client(**options: Any) -> taxcert.Client:
    return taxcert.Client(api_key=options.pop("api_key", API_KEY), base_url=options.pop("base_url", BASE_URL), **options)


def retries(records: List[logging.LogRecord]) -> List[Any]:
    return [r.taxcert_retry for r in records if hasattr(r, "taxcert_retry")]


class EveryRead(unittest.TestCase):
    def test_every_read_operation_answers_2xx(self) -> None:
        api = client()
        first = api.search_certificates(county=[COUNTY], status=["sold"], limit=1)["data"][0]
        holder = api.search_holders(limit=1)["data"][0]
        endpoint = api.list_webhook_endpoints()["data"][0]
        bulk = api.list_bulk_files()["data"][0]
        saved = api.create_saved_search({"name": "Broward, sold", "params": {"county": COUNTY, "status": ["sold"]}})["data"]
        book = api.create_portfolio({"name": "Broward book"})["data"]
        api.add_portfolio_positions(book["id"], {"positions": [{"certificate_id": first["id"]}]})
        address = api.create_portfolio_calendar_address(book["id"])["data"]

        calls: Dict[str, Callable[[], Any]] = {
            "get_open_api_document": lambda: api.get_open_api_document(),
            "get_health": lambda: api.get_health(),
            "get_calendar_by_address": lambda: api.get_calendar_by_address(address["token"]),
            "list_counties": lambda: api.list_counties(),
            "get_county": lambda: api.get_county(COUNTY),
            "search_certificates": lambda: api.search_certificates(county=[COUNTY], facets=["status"], limit=3),
            "get_certificates_by_parcel": lambda: api.get_certificates_by_parcel(county=COUNTY, parcel_id=first["parcel_id"]),
            "get_certificate_counts": lambda: api.get_certificate_counts(county=[COUNTY]),
            "get_certificate_geo_grid": lambda: api.get_certificate_geo_grid(zoom=6, county=[COUNTY]),
            "get_certificate_fields": lambda: api.get_certificate_fields(),
            "get_certificate_freshness": lambda: api.get_certificate_freshness(),
            "get_certificate": lambda: api.get_certificate(first["id"]),
            "search_certificate_sales": lambda: api.search_certificate_sales(county=[COUNTY]),
            "search_holders": lambda: api.search_holders(limit=5),
            "get_holder": lambda: api.get_holder(holder["id"]),
            "search_lands_available": lambda: api.search_lands_available(),
            "list_sources": lambda: api.list_sources(),
            "get_county_sources": lambda: api.get_county_sources(COUNTY),
            "get_bid_rate_analytics": lambda: api.get_bid_rate_analytics(county=[COUNTY]),
            "get_usage": lambda: api.get_usage(),
            "get_redemption_quote": lambda: api.get_redemption_quote(first["id"]),
            "get_certificate_timeline": lambda: api.get_certificate_timeline(first["id"]),
            "get_deed_estimate": lambda: api.get_deed_estimate(first["id"]),
            "search_holder_groups": lambda: api.search_holder_groups(county=[COUNTY]),
            "get_redemption_curve": lambda: api.get_redemption_curve(county=[COUNTY]),
            "get_expected_yield": lambda: api.get_expected_yield(county=[COUNTY]),
            "list_events": lambda: api.list_events(county=[COUNTY]),
            "list_webhook_endpoints": lambda: api.list_webhook_endpoints(),
            "list_webhook_deliveries": lambda: api.list_webhook_deliveries(endpoint["id"]),
            "get_webhook_endpoint": lambda: api.get_webhook_endpoint(endpoint["id"]),
            "list_saved_searches": lambda: api.list_saved_searches(),
            "get_saved_search": lambda: api.get_saved_search(saved["id"]),
            "list_saved_search_matches": lambda: api.list_saved_search_matches(saved["id"], limit=3),
            "list_portfolios": lambda: api.list_portfolios(),
            "get_portfolio": lambda: api.get_portfolio(book["id"]),
            "list_portfolio_positions": lambda: api.list_portfolio_positions(book["id"]),
            "get_portfolio_summary": lambda: api.get_portfolio_summary(book["id"]),
            "get_portfolio_calendar": lambda: api.get_portfolio_calendar(book["id"]),
            "list_bulk_files": lambda: api.list_bulk_files(),
            "download_bulk_file": lambda: api.download_bulk_file(bulk["name"]),
        }
        reads = sorted(name for name, op in taxcert.OPERATIONS.items() if op.method == "GET")
        # A read the API gained without a call here fails this line, not silently.
        self.assertEqual(sorted(calls), reads)
        answers: Dict[str, Any] = {}
        for name in reads:
            # A non-2xx answer raises TaxcertApiError, which fails the test naming the operation.
            answers[name] = calls[name]()
        FACTS["reads"] = reads
        FACTS["read_answers"] = {name: type(answer).__name__ for name, answer in answers.items()}
        # JSON parsed, a calendar as text, a bulk file as its bytes.
        self.assertEqual(answers["get_certificate"]["data"]["id"], first["id"])
        self.assertTrue(answers["get_portfolio_calendar"].startswith("BEGIN:VCALENDAR"))
        self.assertTrue(answers["get_calendar_by_address"].startswith("BEGIN:VCALENDAR"))
        self.assertIsInstance(answers["download_bulk_file"], bytes)
        download = answers["download_bulk_file"]
        self.assertEqual(len(download), bulk["bytes"])
        self.assertEqual(hashlib.sha256(download).hexdigest(), bulk["sha256"])
        csv_text = api.search_certificates_csv(county=[COUNTY], limit=2)
        FACTS["csv_header"] = csv_text.splitlines()[0]
        FACTS["csv_lines"] = len(csv_text.strip().splitlines())


class Paging(unittest.TestCase):
    def test_iterator_walks_one_county_to_its_end(self) -> None:
        api = client()
        total = api.search_certificates(county=[COUNTY], limit=1)["pagination"]["total"]
        # Pages of 250, so the county takes several.
        ids = [row["id"] for row in api.iter_search_certificates(county=[COUNTY], limit=250)]
        self.assertGreater(total, 500)
        self.assertEqual(len(ids), total)
        self.assertEqual(len(set(ids)), total)
        # The generic form walks the same rows, in the operation's largest pages.
        again = [row["id"] for row in api.paginate("searchCertificates", county=[COUNTY])]
        self.assertEqual(again, ids)
        FACTS["county_total"] = total
        FACTS["county_rows"] = len(ids)
        FACTS["county_unique"] = len(set(ids))


class Retries(unittest.TestCase):
    def test_a_429_is_retried_after_retry_after(self) -> None:
        # The key's client may send 2 requests per 3-second window: within a few calls one is
        # refused with a real 429, and that call waits out its Retry-After before answering.
        limited = client(api_key=LIMITED_KEY, max_retries=3, backoff=0.01)
        for _ in range(5):
            with self.assertLogs("taxcert", logging.DEBUG) as logs:
                logging.getLogger("taxcert").debug("calling")
                started = time.monotonic()
                usage = limited.get_usage()
                elapsed = time.monotonic() - started
            self.assertIn("data", usage)
            seen = retries(logs.records)
            if seen:
                break
        self.assertGreaterEqual(len(seen), 1, "no call was refused with a 429")
        self.assertEqual(seen[0].status, 429)
        told = float(seen[0].retry_after)
        self.assertGreaterEqual(told, 1)
        self.assertGreaterEqual(elapsed, told)
        FACTS["rate_limited"] = {"retry_after": told, "elapsed": elapsed, "statuses": [r.status for r in seen]}

    def test_503_and_408_are_retried(self) -> None:
        with FailingProxy(BASE_URL) as proxy:
            proxy.script = ["status:503", "status:408"]
            api = client(base_url=proxy.url, max_retries=3, backoff=0.01)
            with self.assertLogs("taxcert", logging.INFO) as logs:
                fields = api.get_certificate_fields()
            self.assertIn("fields", fields["data"])
            self.assertEqual([s.answered for s in proxy.seen], [503, 408, 200])
            self.assertEqual([r.status for r in retries(logs.records)], [503, 408])
            FACTS["server_errors"] = [s.answered for s in proxy.seen]

    def test_retries_stop_at_max_retries(self) -> None:
        with FailingProxy(BASE_URL) as proxy:
            proxy.script = ["status:503"] * 3
            api = client(base_url=proxy.url, max_retries=2, backoff=0.01)
            with self.assertRaises(taxcert.ServerError) as raised:
                api.list_counties()
            self.assertEqual(raised.exception.status, 503)
            self.assertEqual(len(proxy.seen), 3)

    def test_connection_errors_are_retried_then_raised(self) -> None:
        with FailingProxy(BASE_URL) as proxy:
            closed = proxy.url
        api = client(base_url=closed, max_retries=2, backoff=0.01, timeout=2)
        with self.assertLogs("taxcert", logging.INFO) as logs, self.assertRaises(taxcert.TaxcertConnectionError):
            api.list_counties()
        self.assertEqual([r.status for r in retries(logs.records)], [None, None])

    def test_a_write_retried_under_its_idempotency_key_creates_once(self) -> None:
        name = f"retried book {uuid.uuid4().hex[:8]}"
        with FailingProxy(BASE_URL) as proxy:
            # The first POST reaches the API and creates; its answer is lost on the way back.
            proxy.script = ["forward-then-502"]
            api = client(base_url=proxy.url, max_retries=2, backoff=0.01)
            made = api.create_portfolio({"name": name})["data"]
            posts = [s for s in proxy.seen if s.method == "POST"]
        self.assertEqual([s.answered for s in posts], [502, 201])
        keys = {s.idempotency_key for s in posts}
        self.assertEqual(len(keys), 1)
        self.assertIsNotNone(next(iter(keys)))
        same = [p for p in client().iter_list_portfolios() if p["name"] == name]
        self.assertEqual([p["id"] for p in same], [made["id"]])
        FACTS["idempotent_write"] = {"posts": [s.answered for s in posts], "portfolios": len(same), "id": made["id"]}

    def test_a_refused_write_is_not_sent_twice(self) -> None:
        api = client(max_retries=3)
        with self.assertLogs("taxcert", logging.DEBUG) as logs, self.assertRaises(taxcert.BadRequestError) as raised:
            logging.getLogger("taxcert").debug("calling")
            api.create_portfolio({"name": ""})
        self.assertEqual(raised.exception.code, "bad_request")
        self.assertTrue(raised.exception.issues)
        self.assertEqual(retries(logs.records), [])


class Errors(unittest.TestCase):
    def test_a_401_carries_the_answers_request_id(self) -> None:
        api = client(api_key="tc_live_not_a_key", max_retries=3)
        with self.assertLogs("taxcert", logging.DEBUG) as logs, self.assertRaises(taxcert.TaxcertApiError) as raised:
            logging.getLogger("taxcert").debug("calling")
            api.list_counties()
        err = raised.exception
        self.assertIsInstance(err, taxcert.AuthenticationError)
        self.assertEqual((err.status, err.code), (401, "unauthorized"))
        self.assertRegex(err.request_id or "", r"^req_")
        # The envelope's request_id is the one the answer's header carries.
        self.assertEqual(err.request_id, err.headers.get("x-request-id"))
        self.assertEqual(retries(logs.records), [])
        FACTS["unauthorized"] = {"status": err.status, "code": err.code, "request_id": err.request_id}

    def test_a_404_is_not_found(self) -> None:
        with self.assertRaises(taxcert.NotFoundError) as raised:
            client().get_certificate("cert_00000000000000000000")
        self.assertEqual(raised.exception.code, "not_found")

    def test_no_key_is_a_clear_error(self) -> None:
        with mock.patch.dict(os.environ, {"TAXCERT_API_KEY": ""}), self.assertRaises(ValueError):
            taxcert.Client(base_url=BASE_URL)


class Offline(unittest.TestCase):
    def test_to_dataframe_without_pandas_says_how_to_get_it(self) -> None:
        # None in sys.modules makes `import pandas` fail, whether or not pandas is installed.
        with mock.patch.dict(sys.modules, {"pandas": None}), self.assertRaises(ImportError) as raised:
            taxcert.to_dataframe([{"id": "cert_1"}])
        self.assertIn("pip install 'taxcert[pandas]'", str(raised.exception))
        FACTS["pandas_message"] = str(raised.exception)

    def test_the_error_class_follows_the_code_then_the_status_never_the_message(self) -> None:
        quota = api_error(429, {"error": {"code": "rate_limited", "message": "Not found at all", "request_id": "req_1"}}, {"Retry-After": "9"})
        self.assertIsInstance(quota, taxcert.RateLimitError)
        self.assertEqual((quota.request_id, quota.retry_after), ("req_1", "9"))
        self.assertIsInstance(api_error(403, {"error": {"code": "csv_disabled", "message": "x", "request_id": "r"}}, {}), taxcert.PermissionDeniedError)
        # A code this client does not know yet: its status decides.
        self.assertIsInstance(api_error(404, {"error": {"code": "gone_fishing", "message": "x", "request_id": "r"}}, {}), taxcert.NotFoundError)
        # No envelope (a proxy's page): the status, and the request id from the header.
        bare = api_error(502, None, {"X-Request-Id": "req_h"})
        self.assertIsInstance(bare, taxcert.ServerError)
        self.assertEqual((bare.code, bare.request_id), ("http_502", "req_h"))

    def test_lists_go_as_repeated_keys_and_booleans_as_words(self) -> None:
        api = taxcert.Client(api_key="k", base_url="http://127.0.0.1:9")
        op = taxcert.OPERATIONS["search_certificates"]
        sent = mock.Mock(return_value=Answer(200, {"content-type": "application/json"}, b"{}"))
        with mock.patch.object(api._transport, "request", sent):
            api.search_certificates(county=["broward", "leon"], redeemed=False, limit=5)
        method, path, query = sent.call_args.args[:3]
        self.assertEqual((method, path), (op.method, op.path))
        self.assertEqual(query, [("county", "broward"), ("county", "leon"), ("redeemed", "false"), ("limit", "5")])
        with self.assertRaises(TypeError):
            api.paginate("search_certificates", colour="red").__next__()

    def test_retry_after_as_seconds_or_http_date(self) -> None:
        self.assertEqual(parse_retry_after("7"), 7.0)
        now = 1445412480.0  # Wed, 21 Oct 2015 07:28:00 GMT
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now=now), 30.0)
        self.assertEqual(parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now=now), 0.0)
        self.assertIsNone(parse_retry_after("soon"))


if __name__ == "__main__":
    unittest.main()
