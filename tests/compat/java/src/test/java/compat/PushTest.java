package compat;

import static compat.Emulator.SUBS;
import static compat.Emulator.WAIT;
import static compat.Emulator.assertCode;
import static compat.Emulator.publishTo;
import static compat.Emulator.pullUntil;
import static compat.MessagingTest.msg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.PushConfig;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.Subscription;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Push subscriptions: the emulator POSTs to an HttpServer this test starts on loopback. */
class PushTest extends CompatBase {
  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stopReceivers() {
    servers.forEach(s -> s.stop(0));
  }

  /** A push subscription to {@code topic} with {@code config}. */
  String pushSub(String topic, PushConfig.Builder config) {
    return res.sub(topic, Subscription.newBuilder().setPushConfig(config));
  }

  record Hit(Headers headers, byte[] body, long nanoTime) {}

  /** Records every request and answers statuses[n] (the last one repeats); returns the endpoint. */
  String receiver(List<Hit> hits, int... statuses) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/push",
        ex -> {
          byte[] body = ex.getRequestBody().readAllBytes();
          int n;
          synchronized (hits) {
            n = hits.size();
            hits.add(new Hit(ex.getRequestHeaders(), body, System.nanoTime()));
          }
          ex.sendResponseHeaders(statuses[Math.min(n, statuses.length - 1)], -1);
          ex.close();
        });
    server.start();
    servers.add(server);
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/push";
  }

  static List<Hit> waitFor(List<Hit> hits, int n) throws InterruptedException {
    long end = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < end) {
      synchronized (hits) {
        if (hits.size() >= n) {
          return new ArrayList<>(hits);
        }
      }
      Thread.sleep(20);
    }
    fail("got " + hits.size() + " of " + n + " push requests");
    return null;
  }

  static Map<String, Value> json(byte[] body) throws Exception {
    Struct.Builder b = Struct.newBuilder();
    JsonFormat.parser().merge(new String(body, StandardCharsets.UTF_8), b);
    return b.getFieldsMap();
  }

  @Test
  void wrapperAndRetryUntil2xx() throws Exception {
    List<Hit> hits = new ArrayList<>();
    String url = receiver(hits, 500, 503, 200);
    String topic = res.topic();
    String sub = pushSub(topic, PushConfig.newBuilder().setPushEndpoint(url));
    String id = publishTo(topic, List.of(msg("hello", Map.of("color", "red")))).get(0);
    List<Hit> got = waitFor(hits, 3);
    for (Hit h : got) {
      Map<String, Value> w = json(h.body());
      Map<String, Value> m = w.get("message").getStructValue().getFieldsMap();
      assertEquals(sub, w.get("subscription").getStringValue());
      assertEquals(id, m.get("messageId").getStringValue());
      assertEquals(id, m.get("message_id").getStringValue());
      assertEquals("hello", new String(Base64.getDecoder().decode(m.get("data").getStringValue()), StandardCharsets.UTF_8));
      assertEquals("red", m.get("attributes").getStructValue().getFieldsMap().get("color").getStringValue());
      assertEquals(m.get("publishTime"), m.get("publish_time"));
    }
    // Redelivered after the push backoff: 100 ms, then 200 ms (lower bounds only).
    assertTrue(got.get(1).nanoTime() - got.get(0).nanoTime() >= 90_000_000L);
    assertTrue(got.get(2).nanoTime() - got.get(1).nanoTime() >= 190_000_000L);
    Thread.sleep(500);
    assertEquals(3, waitFor(hits, 3).size(), "acked by the 200");
    assertCode(
        Code.FAILED_PRECONDITION,
        () -> SUBS.pull(PullRequest.newBuilder().setSubscription(sub).setMaxMessages(1).build()),
        "Pull on a push subscription");
  }

  @Test
  void noWrapperWithMetadataThenPull() throws Exception {
    List<Hit> hits = new ArrayList<>();
    String url = receiver(hits, 200);
    String topic = res.topic();
    String sub =
        pushSub(
            topic,
            PushConfig.newBuilder()
                .setPushEndpoint(url)
                .setNoWrapper(PushConfig.NoWrapper.newBuilder().setWriteMetadata(true)));
    String id = publishTo(topic, List.of(msg("raw-bytes", Map.of("color", "red")))).get(0);
    Hit h = waitFor(hits, 1).get(0);
    assertEquals("raw-bytes", new String(h.body(), StandardCharsets.UTF_8));
    assertEquals("red", h.headers().getFirst("color"));
    assertEquals(id, h.headers().getFirst("x-goog-pubsub-message-id"));
    assertEquals(sub, h.headers().getFirst("x-goog-pubsub-subscription-name"));
    assertTrue(h.headers().getFirst("x-goog-pubsub-publish-time") != null);
    SUBS.modifyPushConfig(sub, PushConfig.getDefaultInstance());
    publishTo(topic, List.of(msg("pulled", Map.of())));
    List<ReceivedMessage> got = pullUntil(sub, 1, WAIT);
    assertEquals("pulled", got.get(0).getMessage().getData().toStringUtf8());
  }

  @Test
  void oidcTokenVerifiesWithPublishedKeys() throws Exception {
    List<Hit> hits = new ArrayList<>();
    String url = receiver(hits, 200);
    String topic = res.topic();
    String email = "pusher@compat-test.iam.gserviceaccount.com";
    pushSub(
        topic,
        PushConfig.newBuilder()
            .setPushEndpoint(url)
            .setOidcToken(
                PushConfig.OidcToken.newBuilder()
                    .setServiceAccountEmail(email)
                    .setAudience("compat-aud")));
    publishTo(topic, List.of(msg("x", Map.of())));
    String token = waitFor(hits, 1).get(0).headers().getFirst("authorization").substring("Bearer ".length());
    String[] parts = token.split("\\.");
    Base64.Decoder b64 = Base64.getUrlDecoder();
    Map<String, Value> header = json(b64.decode(parts[0]));
    HttpResponse<byte[]> certs =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://" + System.getenv("PUBSUB_EMULATOR_HOST") + "/oauth2/v3/certs")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    PublicKey key = null;
    for (Value k : json(certs.body()).get("keys").getListValue().getValuesList()) {
      Map<String, Value> jwk = k.getStructValue().getFieldsMap();
      if (jwk.get("kid").getStringValue().equals(header.get("kid").getStringValue())) {
        key =
            KeyFactory.getInstance("RSA")
                .generatePublic(
                    new RSAPublicKeySpec(
                        new BigInteger(1, b64.decode(jwk.get("n").getStringValue())),
                        new BigInteger(1, b64.decode(jwk.get("e").getStringValue()))));
      }
    }
    assertTrue(key != null, "the token's key is published");
    Signature rs256 = Signature.getInstance("SHA256withRSA");
    rs256.initVerify(key);
    rs256.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    assertTrue(rs256.verify(b64.decode(parts[2])), "signature verifies");
    Map<String, Value> claims = json(b64.decode(parts[1]));
    assertEquals("RS256", header.get("alg").getStringValue());
    assertEquals("https://accounts.google.com", claims.get("iss").getStringValue());
    assertEquals("compat-aud", claims.get("aud").getStringValue());
    assertEquals(email, claims.get("email").getStringValue());
    assertTrue(claims.get("email_verified").getBoolValue());
    assertEquals(3600, claims.get("exp").getNumberValue() - claims.get("iat").getNumberValue());
  }
}
