"""Push subscriptions: the emulator POSTs to an HTTP server this test starts on loopback."""

import base64
import json
import os
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from google.api_core import exceptions

from conftest import pull_until

WAIT = 30


class Receiver:
    """Records each POST; answers with statuses[n] (the last one repeats)."""

    def __init__(self, statuses=(200,)):
        self.hits = []
        self.statuses = list(statuses)
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with receiver.lock:
                    n = len(receiver.hits)
                    receiver.hits.append((dict((k.lower(), v) for k, v in self.headers.items()), body, time.monotonic()))
                status = receiver.statuses[min(n, len(receiver.statuses) - 1)]
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, n, within=10):
        end = time.monotonic() + within
        while time.monotonic() < end:
            with self.lock:
                if len(self.hits) >= n:
                    return list(self.hits)
            time.sleep(0.02)
        raise AssertionError(f"got {len(self.hits)} of {n} push requests within {within}s")

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made = []

    def make(statuses=(200,)):
        r = Receiver(statuses)
        made.append(r)
        return r

    yield make
    for r in made:
        r.stop()


def b64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def test_push_wrapper_and_retry_until_2xx(res, publisher, subscriber, receiver):
    r = receiver(statuses=(500, 503, 200))
    topic = res.topic()
    sub = res.subscription(topic, push_config={"push_endpoint": r.url})
    mid = publisher.publish(topic, b"hello", color="red").result(timeout=WAIT)
    hits = r.wait_for(3)
    for headers, body, _ in hits:
        wrapper = json.loads(body)
        assert wrapper["subscription"] == sub
        assert wrapper["message"]["messageId"] == mid == wrapper["message"]["message_id"]
        assert base64.b64decode(wrapper["message"]["data"]) == b"hello"
        assert wrapper["message"]["attributes"] == {"color": "red"}
        assert headers["content-type"] == "application/json"
    # Redelivered after the push backoff: 100 ms, then 200 ms (lower bounds only).
    assert hits[1][2] - hits[0][2] >= 0.09
    assert hits[2][2] - hits[1][2] >= 0.19
    time.sleep(0.5)
    assert len(r.hits) == 3  # acked by the 200
    with pytest.raises(exceptions.FailedPrecondition):
        subscriber.pull(request={"subscription": sub, "max_messages": 1}, retry=None, timeout=WAIT)


def test_push_no_wrapper_with_metadata_then_back_to_pull(res, publisher, subscriber, receiver):
    r = receiver()
    topic = res.topic()
    sub = res.subscription(topic, push_config={"push_endpoint": r.url, "no_wrapper": {"write_metadata": True}})
    mid = publisher.publish(topic, b"raw-bytes", color="red").result(timeout=WAIT)
    [(headers, body, _)] = r.wait_for(1)
    assert body == b"raw-bytes"
    assert headers["color"] == "red"
    assert headers["x-goog-pubsub-message-id"] == mid
    assert headers["x-goog-pubsub-subscription-name"] == sub
    assert headers["x-goog-pubsub-publish-time"]
    subscriber.modify_push_config(request={"subscription": sub, "push_config": {}}, timeout=WAIT)
    publisher.publish(topic, b"pulled").result(timeout=WAIT)
    [m] = pull_until(subscriber, sub, 1, WAIT)
    assert m.message.data == b"pulled"
    assert len(r.hits) == 1


def test_push_oidc_token_verifies_with_published_keys(res, publisher, receiver):
    r = receiver()
    topic = res.topic()
    email = "pusher@compat-test.iam.gserviceaccount.com"
    res.subscription(topic, push_config={"push_endpoint": r.url, "oidc_token": {"service_account_email": email, "audience": "compat-aud"}})
    publisher.publish(topic, b"x").result(timeout=WAIT)
    [(headers, _, _)] = r.wait_for(1)
    token = headers["authorization"].removeprefix("Bearer ")
    head, payload, sig = token.split(".")
    header = json.loads(b64url(head))
    with urllib.request.urlopen(f"http://{os.environ['PUBSUB_EMULATOR_HOST']}/oauth2/v3/certs", timeout=WAIT) as resp:
        keys = {k["kid"]: k for k in json.load(resp)["keys"]}
    jwk = keys[header["kid"]]
    public = rsa.RSAPublicNumbers(int.from_bytes(b64url(jwk["e"]), "big"), int.from_bytes(b64url(jwk["n"]), "big")).public_key()
    public.verify(b64url(sig), f"{head}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())  # raises if forged
    claims = json.loads(b64url(payload))
    assert header["alg"] == "RS256"
    assert claims["iss"] == "https://accounts.google.com"
    assert claims["aud"] == "compat-aud"
    assert claims["email"] == email and claims["email_verified"] is True
    assert claims["exp"] - claims["iat"] == 3600
