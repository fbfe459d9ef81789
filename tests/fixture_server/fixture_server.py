#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 fixture server for raind's tests (stdlib only).

Serves files from a directory on 127.0.0.1 and, on request, misbehaves the way
real weather providers and networks do: slow, stalled, refusing, truncated,
oversized, reset. See README.md next to this file for the full reference.

    python3 fixture_server.py DIR [--port 0] [--route PREFIX=FILE ...]
                              [--header NAME:VALUE ...] [--present FILE=UNIXTIME ...]
                              [--tls-cert PEM --tls-key PEM] [--verbose]

The first line on stdout is `PORT <n>`, the port it listens on.
"""

import argparse
import base64
import datetime
import gzip
import hashlib
import json
import os
import re
import select
import socket
import ssl
import struct
import sys
import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MODES = {
    "normal", "slow-headers", "slow-body", "stall", "304", "status", "malformed",
    "truncated", "huge", "reset", "gzip", "redirect", "echo", "hold",
}


# How far from the moment a recording was made a number may lie and still be
# one of its times: a forecast reaches days ahead, alerts and sunrises too,
# and no other value a provider sends (pressure, offsets) comes near.
TIME_REACH = 400 * 86400


def moved_in_time(value, seconds, around, reach=TIME_REACH):
    """`value` (parsed JSON) with every number within `reach` seconds of
    `around` -- the Unix times of a recording made at `around` -- moved by
    `seconds`; every other value is left as it is."""
    if isinstance(value, dict):
        return {key: moved_in_time(item, seconds, around, reach) for key, item in value.items()}
    if isinstance(value, list):
        return [moved_in_time(item, seconds, around, reach) for item in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value - around) <= reach:
        return value + seconds
    if isinstance(value, str):
        match = ISO_INSTANT.fullmatch(value)
        if match:
            # MET Norway writes its times in UTC ("Z"); the NWS and Bright Sky
            # with an offset, the NWS's grid values with a duration after "/".
            # The moved time keeps its offset and its duration.
            stamp, offset, duration = match.groups()
            moment = datetime.datetime.fromisoformat(stamp + offset)
            if abs(moment.timestamp() - around) <= reach:
                moved = (moment + datetime.timedelta(seconds=seconds)).isoformat()
                if offset == "Z":
                    moved = moved.removesuffix("+00:00") + "Z"
                return moved + (duration or "")
    return value


ISO_INSTANT = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(Z|[+-]\d\d:\d\d)(/P[0-9A-Z]+)?")


def hours_since(moment, now=None):
    """Whole hours from `moment` to now, in seconds: moving a recording made
    at `moment` by this puts that moment in the hour now."""
    return int(((now if now is not None else time.time()) - moment) // 3600 * 3600)


class State:
    """Request counts and scripted modes, shared by the handler threads."""

    def __init__(self, root, routes, headers=(), present=None):
        self.root = os.path.realpath(root)
        self.headers = list(headers)
        # By file name: (when it was recorded, how far its times move). Fixed
        # when the server starts, so a file's ETag stays the same while it runs.
        self.present = {name: (moment, hours_since(moment)) for name, moment in (present or {}).items()}
        self.routes = sorted(routes.items(), key=lambda item: -len(item[0]))
        self.lock = threading.Lock()
        self.counts = {}
        self.targets = {}
        self.last_headers = {}
        self.scripts = []
        # Gates of held requests by name: an event a release sets, and how many wait.
        self.gates = {}
        self.held = {}

    def gate(self, name):
        with self.lock:
            return self.gates.setdefault(name, threading.Event())

    def hold(self, name, change):
        with self.lock:
            self.held[name] = self.held.get(name, 0) + change

    def release(self, name):
        self.gate(name).set()

    def record(self, path, target, headers):
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            self.targets[target] = self.targets.get(target, 0) + 1
            self.last_headers[path] = {name.lower(): value for name, value in headers.items()}

    def stats(self):
        with self.lock:
            return {
                "total": sum(self.counts.values()),
                "paths": dict(self.counts),
                "targets": dict(self.targets),
                "last_headers": dict(self.last_headers),
                "scripts": [dict(script) for script in self.scripts],
                "held": dict(self.held),
            }

    def reset(self):
        with self.lock:
            self.counts.clear()
            self.targets.clear()
            self.last_headers.clear()
            self.scripts.clear()
            for gate in self.gates.values():
                gate.set()
            self.gates.clear()
            self.held.clear()

    def unscript(self):
        with self.lock:
            self.scripts.clear()

    def add_script(self, script):
        with self.lock:
            self.scripts.append(script)

    def take_script(self, path):
        """The first script whose prefix matches `path`, used up by one request."""
        with self.lock:
            for script in self.scripts:
                if path.startswith(script.get("path_prefix", "/")):
                    count = script.get("count", 1)
                    if count == 0:
                        continue
                    if count > 0:
                        script["count"] = count - 1
                    return dict(script)
            return None

    def file_for(self, path, query):
        """The file serving `path`: `?file=NAME`, a --route prefix, or the path itself."""
        candidates = []
        if "file" in query:
            candidates.append(query["file"])
        for prefix, name in self.routes:
            if path.startswith(prefix):
                candidates.append(name)
                break
        relative = path.lstrip("/")
        if relative:
            candidates += [relative, relative + ".json"]
        for name in candidates:
            full = os.path.realpath(os.path.join(self.root, name))
            if full.startswith(self.root + os.sep) and os.path.isfile(full):
                return full
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "raind-fixture/1"
    state = None  # set by main
    verbose = False

    def date_time_string(self, timestamp=None):
        """The `Date` header: now, or `date-offset` seconds earlier (a response
        the origin made that long ago, as a cache in between would serve it)."""
        if timestamp is None:
            timestamp = (getattr(self, "answered_at", None) or time.time()) - getattr(self, "date_offset", 0)
        return super().date_time_string(timestamp)

    def log_message(self, format, *args):
        if self.verbose:
            sys.stderr.write("fixture: " + (format % args) + "\n")

    # -- control endpoints ------------------------------------------------

    def do_POST(self):
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if path == "/_reset":
            self.state.reset()
            return self.send_json(200, {"ok": True})
        if path == "/_release":
            # The requests held at a gate are answered; later ones pass it too.
            try:
                gate = json.loads(raw or b"{}").get("gate", "default")
            except (ValueError, AttributeError) as error:
                return self.send_json(400, {"error": str(error)})
            self.state.release(str(gate))
            return self.send_json(200, {"ok": True})
        if path == "/_unscript":
            # The scripted modes end (an outage is over); the counts stay.
            self.state.unscript()
            return self.send_json(200, {"ok": True})
        if path == "/_mode":
            try:
                script = json.loads(raw or b"{}")
                if not isinstance(script, dict):
                    raise ValueError("expected a JSON object")
                if script.get("mode", "normal") not in MODES:
                    raise ValueError("unknown mode %r" % script.get("mode"))
            except ValueError as error:
                return self.send_json(400, {"error": str(error)})
            script.setdefault("path_prefix", "/")
            script.setdefault("count", 1)
            self.state.add_script(script)
            return self.send_json(200, {"ok": True, "script": script})
        self.send_json(404, {"error": "no such control endpoint"})

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == "/_stats":
            return self.send_json(200, self.state.stats())
        self.state.record(parts.path, self.path, self.headers)
        query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
        script = self.state.take_script(parts.path)
        self.extra_headers = {}
        if script:
            # A script overrides the query; its keys use underscores (retry_after).
            for key, value in script.items():
                if key == "headers" and isinstance(value, dict):
                    self.extra_headers = {str(name): str(text) for name, text in value.items()}
                elif key not in ("path_prefix", "count"):
                    query[key.replace("_", "-")] = str(value)
        self.date_offset = int(query.get("date-offset", "0"))
        # One clock reading for the answer's Date and Expires, so that
        # Expires - Date is exactly the `expires` asked for.
        self.answered_at = None
        mode = query.get("mode", "status" if "status" in query else "normal")
        try:
            self.serve(mode, parts.path, query)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    # -- modes ----------------------------------------------------------

    def serve(self, mode, path, query):
        delay = float(query.get("delay", "1"))
        if mode == "slow-headers":
            time.sleep(delay)
            mode = "normal"
        if mode == "hold":
            # Held until the test releases the gate (or `delay`, default 30 s, passes):
            # the test, not the clock, decides which answer comes first.
            gate = query.get("gate", "default")
            self.state.hold(gate, 1)
            self.state.gate(gate).wait(float(query.get("delay", "30")))
            self.state.hold(gate, -1)
            mode = "normal"
        if mode == "reset":
            # SO_LINGER with a zero timeout makes close() send RST, not FIN.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if mode == "status":
            status = int(query.get("status", "500"))
            extra = {}
            if "retry-after" in query:
                extra["Retry-After"] = query["retry-after"]
            if "reason" in query:
                # Open-Meteo's error object, as its forecast and geocoding APIs send with 400 and 429.
                return self.send_json(status, {"error": True, "reason": query["reason"]}, extra)
            return self.send_json(status, {"error": "fixture status %d" % status}, extra)
        if mode == "redirect":
            hops = int(query.get("hops", "1"))
            if hops > 0:
                # to: another server (scheme://host:port) to send the client to.
                target = query.get("to", "") + "%s?mode=redirect&hops=%d" % (path, hops - 1)
                if "file" in query:
                    target += "&file=" + query["file"]
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            mode = "normal"
        if mode == "echo":
            return self.serve_echo(int(query.get("status", "200")), query.get("encoding", ""))
        if mode == "huge":
            return self.serve_huge(int(query.get("size", str(20 * 1024 * 1024))), query.get("chunked") == "1")
        if mode == "stall":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.flush()
            self.wait_for_close(float(query.get("delay", "60")))
            return

        body, headers = self.file_body(path, query)
        if body is None:
            return self.send_json(404, {"error": "no fixture file for %s" % path})
        if mode == "malformed":
            body = b"<html><body>Service temporarily unavailable</body></html>\n"
            headers.pop("ETag", None)
        etag = headers.get("ETag")
        # If-Modified-Since counts only without If-None-Match (RFC 9110 13.1.3).
        since = self.headers.get("If-Modified-Since") if self.headers.get("If-None-Match") is None else None
        if (etag and self.headers.get("If-None-Match") in (etag, "*")) or (
                since and since == headers.get("Last-Modified")):
            self.send_response(304)
            for name in ("ETag", "Last-Modified", "Cache-Control", "Expires"):
                if name in headers:
                    self.send_header(name, headers[name])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "gzip":
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        if mode == "truncated":
            self.send_response(200)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body) + 1000))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        # answer-status: a file served with another success status (met.no's
        # 203 for a deprecated product).
        self.send_response(int(query.get("answer-status", "200")))
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode == "slow-body":
            pieces = 10
            step = max(1, (len(body) + pieces - 1) // pieces)
            for start in range(0, len(body), step):
                self.wfile.write(body[start:start + step])
                self.wfile.flush()
                time.sleep(delay / pieces)
        else:
            self.wfile.write(body)

    def file_body(self, path, query):
        name = self.state.file_for(path, query)
        if name is None:
            return None, {}
        with open(name, "rb") as handle:
            body = handle.read()
        present = self.state.present.get(os.path.basename(name))
        if present:
            moment, seconds = present
            body = (json.dumps(moved_in_time(json.loads(body), seconds, moment)) + "\n").encode()
        headers = {
            "Content-Type": "application/json" if name.endswith(".json")
            else "application/xml" if name.endswith(".xml") else "application/octet-stream",
            "ETag": '"%s"' % hashlib.sha256(body).hexdigest()[:16],
            "Last-Modified": formatdate(os.path.getmtime(name), usegmt=True),
        }
        if "max-age" in query:
            headers["Cache-Control"] = "max-age=%d" % int(query["max-age"])
        for name, value in self.state.headers:
            headers[name] = value
        headers.update(getattr(self, "extra_headers", {}))
        # A script's header with an empty value is left out (a provider that sends no ETag).
        headers = {name: value for name, value in headers.items() if value != ""}
        if "expires" in query:
            # Last, after X-Accel-Expires: nginx before 1.23 drops an answer
            # whose past Expires it reads first, whatever follows.
            self.answered_at = time.time()
            moment = self.answered_at - self.date_offset + int(query["expires"])
            headers["Expires"] = formatdate(moment, usegmt=True)
        return body, headers

    def serve_echo(self, status, encoding=""):
        """Sends the request target (path and query, API key and all) back in
        every field a provider can fill: the reason phrase, headers a client
        keeps (ETag, Last-Modified, Retry-After, Cache-Control), and the error
        fields of both providers' bodies. A client must show none of it.
        `encoding` spells the body's copies otherwise: "gzip" (the body
        compressed, with no Content-Encoding), "unicode" (every character a
        JSON \\u escape), "base64" (at three alignments), "hex", "percent"."""
        target = self.path
        spelt = {
            "unicode": lambda text: "".join("\\u%04x" % ord(c) for c in text),
            "base64": lambda text: " ".join(base64.b64encode((lead + text).encode()).decode()
                                            for lead in ("", "x", "xy")),
            "hex": lambda text: text.encode().hex(),
            "percent": lambda text: "".join("%%%02X" % b for b in text.encode()),
        }.get(encoding)
        if spelt and encoding == "unicode":
            body = ('{"error": "%s", "code": %d}' % (spelt(target), status)).encode() + b"\n"
        else:
            copy = spelt(target) if spelt else target
            body = json.dumps({
                "error": copy, "message": copy, "detail": copy,
                "reason": copy, "code": status,
            }).encode() + b"\n"
        if encoding == "gzip":
            body = gzip.compress(body)
        self.send_response(status, "Echo " + target)
        self.send_header("Content-Type", "application/json")
        self.send_header("ETag", '"%s"' % target)
        self.send_header("Last-Modified", target)
        self.send_header("Retry-After", target)
        self.send_header("Cache-Control", "max-age=" + target)
        self.send_header("X-Echo", target)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def serve_huge(self, size, chunked):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        block = b"[" + b"0," * 32767 + b"0"  # 64 KiB of JSON-looking bytes
        sent = 0
        while sent < size:
            piece = block[: min(len(block), size - sent)]
            if chunked:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            else:
                self.wfile.write(piece)
            sent += len(piece)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def wait_for_close(self, seconds):
        """Sends nothing until the client hangs up or `seconds` pass."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:
                try:
                    if not self.connection.recv(1, socket.MSG_PEEK):
                        break
                except OSError:
                    break
                time.sleep(0.05)
        self.close_connection = True

    def send_json(self, status, value, extra=None):
        body = (json.dumps(value, sort_keys=True) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, header in (extra or {}).items():
            self.send_header(name, header)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class QuietServer(ThreadingHTTPServer):
    """Keeps the tracebacks of connections the client broke off (refused
    certificates, resets, timeouts) off stderr unless --verbose."""

    verbose = False

    def handle_error(self, request, client_address):
        if self.verbose:
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="directory of files to serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--route", action="append", default=[], metavar="PREFIX=FILE",
                        help="serve FILE for request paths starting with PREFIX")
    parser.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                        help="add this header to every file served (a cache's Age, say)")
    parser.add_argument("--present", action="append", default=[], metavar="FILE=UNIXTIME",
                        help="serve FILE, recorded at UNIXTIME, as if recorded now: its times move by whole hours")
    parser.add_argument("--tls-cert", metavar="PEM", help="serve HTTPS with this certificate")
    parser.add_argument("--tls-key", metavar="PEM", help="the certificate's private key")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    arguments = parser.parse_args()

    routes = {}
    for route in arguments.route:
        prefix, _, name = route.partition("=")
        if not prefix.startswith("/") or not name:
            parser.error("--route wants PREFIX=FILE with PREFIX starting with /, got %r" % route)
        routes[prefix] = name
    if not os.path.isdir(arguments.directory):
        parser.error("not a directory: %s" % arguments.directory)

    headers = []
    for header in arguments.header:
        name, _, value = header.partition(":")
        if not name.strip() or not value.strip():
            parser.error("--header wants NAME:VALUE, got %r" % header)
        headers.append((name.strip(), value.strip()))
    present = {}
    for item in arguments.present:
        name, _, moment = item.partition("=")
        try:
            present[name] = float(moment)
        except ValueError:
            parser.error("--present wants FILE=UNIXTIME, got %r" % item)
    Handler.state = State(arguments.directory, routes, headers, present)
    Handler.verbose = arguments.verbose
    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        parser.error("--tls-cert and --tls-key go together")

    server = QuietServer((arguments.host, arguments.port), Handler)
    server.daemon_threads = True
    server.verbose = arguments.verbose
    if arguments.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
        # The handshake runs in the handler's thread, on first read, so a client
        # that stalls or aborts it holds up nobody.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
