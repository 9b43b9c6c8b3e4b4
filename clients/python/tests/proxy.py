"""A small real HTTP server in front of the API that fails on purpose, for the retry tests.

Each request takes the next step of its script: answer a status itself (as a load balancer
would: 503, 408), pass the request on, or pass it on and then answer 502 instead of the API's
answer (a write that took effect but whose answer was lost). Once the script is used up every
request is passed on. Every request is recorded.
"""

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict, List, Optional, Tuple

FORWARDED_HEADERS = ("authorization", "accept", "content-type", "idempotency-key", "user-agent")


class Seen:
    def __init__(self, method: str, path: str, idempotency_key: Optional[str], answered: int) -> None:
        self.method = method
        self.path = path
        self.idempotency_key = idempotency_key
        self.answered = answered


class FailingProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.script: List[str] = []
        self.seen: List[Seen] = []
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else None
                with proxy._lock:
                    step = proxy.script.pop(0) if proxy.script else "forward"
                if step.startswith("status:"):
                    status = int(step.split(":", 1)[1])
                    headers, content = {"content-type": "application/json"}, _envelope(status)
                else:
                    status, headers, content = proxy._forward(self.command, self.path, dict(self.headers.items()), body)
                    if step == "forward-then-502":
                        status, headers, content = 502, {"content-type": "application/json"}, _envelope(502)
                # Recorded before answering: the client may read the list as soon as it has its answer.
                with proxy._lock:
                    proxy.seen.append(Seen(self.command, self.path, self.headers.get("idempotency-key"), status))
                self._answer(status, headers, content)

            def _answer(self, status: int, headers: Dict[str, str], content: bytes) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection", "keep-alive"):
                        self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FailingProxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _forward(self, method: str, path: str, headers: Dict[str, str], body: Optional[bytes]) -> Tuple[int, Dict[str, str], bytes]:
        sent = {k: v for k, v in headers.items() if k.lower() in FORWARDED_HEADERS}
        request = urllib.request.Request(self.upstream + path, data=body, method=method, headers=sent)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as refused:
            with refused:
                return refused.code, dict(refused.headers.items()), refused.read()


def _envelope(status: int) -> bytes:
    code = {408: "request_timeout", 502: "bad_gateway", 503: "service_unavailable"}.get(status, "internal_error")
    return json.dumps({"error": {"code": code, "message": f"proxy answered {status}", "request_id": f"req_proxy{status}"}}).encode()
