#!/usr/bin/env python3
"""An SDK-free client of customers-api-mock, in Python 3 with the standard library only, as a seller's test
suite in another language would drive it: it starts the built bin with a seed, acts through the API, and
asserts through the request journal (GET /__mock/requests) and the clock (POST /__mock/clock). Nothing here
sleeps: webhook retries and key expiry are reached by moving the mock's clock.

Run: MOCK_BIN=packages/mock-server/dist/cli.js python3 journal_clock_test.py (node on PATH, or NODE=...)."""

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHOP = "9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a"
KEY = "sk_live_" + "a" * 48
EXPIRING_KEY = "sk_live_" + "b" * 48
SEED_NOW = "2020-01-01T00:00:00Z"
HOUR_MS = 3_600_000


class Receiver(BaseHTTPRequestHandler):
    """A webhook receiver that always fails (500) and remembers each attempt's headers."""

    attempts = []

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.attempts.append({name.lower(): value for name, value in self.headers.items()})
        self.send_response(500)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(base, method, path, body=None, headers=None):
    """One request; returns (status, parsed JSON body or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    # Always JSON: the mock refuses a state-changing control request without it, body or not.
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


class MockInstrumentsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=cls.receiver.serve_forever, daemon=True).start()
        hook = "http://127.0.0.1:%d/hook" % cls.receiver.server_address[1]
        seed = {
            "clock": {"now": SEED_NOW},
            "sellers": [
                {
                    "id": SHOP,
                    "keys": [{"key": KEY}, {"key": EXPIRING_KEY, "expiresAt": "2020-01-01T01:00:00Z"}],
                }
            ],
            "webhooks": [{"url": hook, "events": ["customer.created"]}],
        }
        cls.seed_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump(seed, cls.seed_file)
        cls.seed_file.close()
        node = os.environ.get("NODE", "node")
        cls.mock = subprocess.Popen(
            [node, os.environ["MOCK_BIN"], "--port", "0", "--seed", cls.seed_file.name],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        first = cls.mock.stdout.readline()
        match = re.search(r"listening on (http://\S+)", first)
        if not match:
            cls.mock.kill()
            raise RuntimeError("customers-api-mock did not start: " + first + cls.mock.stdout.read())
        cls.base = match.group(1)

    @classmethod
    def tearDownClass(cls):
        cls.mock.terminate()
        cls.mock.wait(timeout=10)
        cls.mock.stdout.close()
        cls.receiver.shutdown()
        cls.receiver.server_close()
        os.unlink(cls.seed_file.name)

    def api(self, method, path, body=None, key=KEY, headers=None):
        return call(self.base, method, "/api/customers" + path, body, {"X-API-Key": key, **(headers or {})})

    def advance(self, ms):
        status, clock = call(self.base, "POST", "/__mock/clock", {"advance_ms": ms})
        self.assertEqual(status, 200, clock)
        return clock

    def journal(self, query=""):
        status, page = call(self.base, "GET", "/__mock/requests" + query)
        self.assertEqual(status, 200, page)
        return page["data"]

    def test_1_the_seed_clock_stands_frozen_in_the_past(self):
        self.assertEqual(call(self.base, "GET", "/__mock/clock"), (200, {"now": "2020-01-01T00:00:00.000Z", "frozen": True}))
        status, problem = call(self.base, "POST", "/__mock/clock", {"now": "2019-12-31T23:59:59Z"})
        self.assertEqual(status, 400)
        self.assertIn("cannot go back", problem["message"])

    def test_2_a_key_expires_when_the_clock_passes_its_expiresAt(self):
        self.assertEqual(self.api("GET", "")[0], 200)
        self.assertEqual(self.api("GET", "", key=EXPIRING_KEY)[0], 200)
        clock = self.advance(HOUR_MS + 1000)
        self.assertEqual(clock, {"now": "2020-01-01T01:00:01.000Z", "frozen": True})
        status, body = self.api("GET", "", key=EXPIRING_KEY)
        self.assertEqual((status, body["error"]), (401, "Unauthorized"))
        refused = self.journal("?status=401")
        self.assertEqual(len(refused), 1)
        self.assertEqual(refused[0]["headers"]["x-api-key"], EXPIRING_KEY[:12] + "\u2026")
        self.assertEqual(refused[0]["at"], "2020-01-01T01:00:01.000Z")

    def test_3_one_create_with_an_idempotency_key_and_its_webhook_retries(self):
        body = {"first_name": "Grace", "last_name": "Hopper", "email": "grace@example.com"}
        status, customer = self.api("POST", "", body, headers={"Idempotency-Key": "order-42"})
        self.assertEqual(status, 201, customer)
        creates = self.journal("?operation=createCustomer&seller=" + SHOP)
        self.assertEqual(len(creates), 1)
        self.assertEqual(creates[0]["headers"]["idempotency-key"], "order-42")
        self.assertEqual((creates[0]["status"], creates[0]["body"]), (201, body))
        self.assertNotIn(KEY, json.dumps(self.journal()))  # keys only by their prefix

        # The first attempt has failed (the clock call waits for attempts under way); the retry is 5 s + <= 10 % away.
        self.advance(5600)
        self.assertEqual(len(Receiver.attempts), 2)
        self.advance(66_100)
        self.assertEqual(len(Receiver.attempts), 3)
        stamps = [int(attempt["webhook-timestamp"]) for attempt in Receiver.attempts]
        self.assertEqual(len({attempt["webhook-id"] for attempt in Receiver.attempts}), 1)
        self.assertGreaterEqual(stamps[1] - stamps[0], 5)
        self.assertGreaterEqual(stamps[2] - stamps[1], 60)
        self.assertLess(stamps[2], 1577923200)  # still 2020-01-02: the mock's clock, not the wall clock
        status, deliveries = call(self.base, "GET", "/__mock/deliveries")
        self.assertEqual([attempt["status"] for attempt in deliveries["data"][0]["attempts"]], [500, 500, 500])

        # Created while the clock stands in 2020: the date filters find it there.
        status, page = self.api("GET", "?created_before=2020-01-02T00:00:00Z")
        self.assertEqual((status, [c["id"] for c in page["data"]]), (200, [customer["id"]]))
        self.assertTrue(customer["created_at"].startswith("2020-01-01T01:00:01"))
        self.assertEqual(self.api("GET", "?created_after=2020-01-02T00:00:00Z")[1]["data"], [])

    def test_4_reset_clears_the_journal_and_returns_the_clock_to_the_seed(self):
        self.assertEqual(call(self.base, "POST", "/__mock/reset")[0], 204)
        self.assertEqual(self.journal(), [])
        self.assertEqual(call(self.base, "GET", "/__mock/clock")[1], {"now": "2020-01-01T00:00:00.000Z", "frozen": True})
        self.assertEqual(call(self.base, "DELETE", "/__mock/clock")[1]["frozen"], False)


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
