/** Every row of the settings table: its flag and its env var set the same field; flags win. */
import { describe, expect, test } from "bun:test";
import { DEFAULTS, OPTIONS, loadConfig, type Config } from "../../src/runtime/config.ts";

/** One sample per option: a value, and the Config it must produce. Add a row with every new option. */
const SAMPLES: Record<string, { value: string; expect: Partial<Config> }> = {
  "--host-port": { value: "0.0.0.0:9090", expect: { host: "0.0.0.0", port: 9090 } },
  "--project": { value: "my-project", expect: { project: "my-project" } },
  "--max-messages-per-response": { value: "17", expect: { maxMessagesPerResponse: 17 } },
  "--fill-wait-ms": { value: "5", expect: { fillWaitMs: 5 } },
  "--causal-delay-ms": { value: "off", expect: { causalDelayMs: -1 } },
  "--pull-wait-ms": { value: "250", expect: { pullWaitMs: 250 } },
  "--push-timeout-ms": { value: "300", expect: { pushTimeoutMs: 300 } },
  "--clock": { value: "manual", expect: { clock: "manual" } },
  "--message-history": { value: "50", expect: { messageHistory: 50 } },
  "--log-level": { value: "debug", expect: { logLevel: "debug" } },
  "--log-format": { value: "json", expect: { logFormat: "json" } },
  "--data-dir": { value: "/var/lib/pubsub", expect: { dataDir: "/var/lib/pubsub" } },
  "--config": { value: "/etc/pubsub.yaml", expect: { configFile: "/etc/pubsub.yaml" } },
  "--provision": { value: "p,t1:s1", expect: { provision: ["p,t1:s1"] } },
  "--max-memory": { value: "512M", expect: { maxMemory: 512 * 2 ** 20 } },
  "--handshake-timeout-ms": { value: "1500", expect: { handshakeTimeoutMs: 1500 } },
  "--bigquery-dir": { value: "/tmp/bq", expect: { bigqueryDir: "/tmp/bq" } },
  "--bigtable-emulator-host": { value: "localhost:8086", expect: { bigtableEmulatorHost: "localhost:8086" } },
  "--project-quotas": { value: "topics=3, snapshots=2", expect: { projectQuotas: { topics: 3, snapshots: 2 } } },
  "--storage-dir": { value: "/tmp/gcs", expect: { storageDir: "/tmp/gcs" } },
  "--storage-emulator-host": { value: "http://localhost:4443", expect: { storageEmulatorHost: "http://localhost:4443" } },
  "--grpc-server": { value: "grpc-js", expect: { grpcServer: "grpc-js" } },
  "--ai-inference-endpoint": { value: "http://127.0.0.1:9000", expect: { aiInferenceEndpoints: ["http://127.0.0.1:9000"] } },
  "--ai-inference-timeout-ms": { value: "2500", expect: { aiInferenceTimeoutMs: 2500 } },
  "--transform-workers": { value: "0", expect: { transformWorkers: 0 } },
  "--msk-bootstrap": { value: "arn:aws:kafka:us-east-1:1:cluster/c/x=127.0.0.1:9092", expect: { mskBootstrap: ["arn:aws:kafka:us-east-1:1:cluster/c/x=127.0.0.1:9092"] } },
  "--kafka-sasl": { value: "SCRAM-SHA-256:alice:pa:ss", expect: { kafkaSasl: "SCRAM-SHA-256:alice:pa:ss" } },
  "--kinesis-endpoint": { value: "http://127.0.0.1:4567", expect: { kinesisEndpoint: "http://127.0.0.1:4567" } },
  "--aws-endpoint-url": { value: "http://127.0.0.1:4566", expect: { awsEndpointUrl: "http://127.0.0.1:4566" } },
};

const envName = (env: string) => env.replace("<N>", "1");

describe("each option of the table", () => {
  test("has a sample here", () => {
    expect(OPTIONS.map((o) => o.flag).filter((f) => !SAMPLES[f])).toEqual([]);
  });

  for (const o of OPTIONS) {
    const s = SAMPLES[o.flag];
    if (!s) continue;
    test(`${o.flag} VALUE, ${o.flag}=VALUE and ${envName(o.env)}=VALUE`, () => {
      expect(loadConfig([o.flag, s.value], {})).toMatchObject(s.expect);
      expect(loadConfig([`${o.flag}=${s.value}`], {})).toMatchObject(s.expect);
      expect(loadConfig([], { [envName(o.env)]: s.value })).toMatchObject(s.expect);
      for (const alias of o.aliases ?? []) expect(loadConfig([alias, s.value], {})).toMatchObject(s.expect);
    });
    test(`${o.flag}'s default is what the table says`, () => {
      const field = Object.keys(s.expect)[0] as keyof Config;
      const value = DEFAULTS[field];
      const shown =
        o.flag === "--host-port"
          ? `${DEFAULTS.host}:${DEFAULTS.port}`
          : typeof value === "object" && !Array.isArray(value)
            ? Object.entries(value).map(([k, n]) => `${k}=${n}`).join(",")
            : String(value ?? "");
      expect(shown).toBe(o.default);
    });
  }
});

test("no flags and no env give the defaults", () => {
  expect(loadConfig([], {})).toEqual(DEFAULTS);
});

test("--grpc-server takes lean, raw or grpc-js only", () => {
  expect(loadConfig(["--grpc-server", "lean"], {}).grpcServer).toBe("lean");
  expect(loadConfig(["--grpc-server", "raw"], {}).grpcServer).toBe("raw");
  expect(() => loadConfig(["--grpc-server", "netty"], {})).toThrow("--grpc-server must be lean, raw or grpc-js");
});

test("--project-quotas refuses an unknown kind, a repeated one, and a limit out of range", () => {
  for (const bad of ["queues=3", "topics=3,topics=4", "topics=0", "topics", "topics=2=3", "__proto__=1", "topics=1.5"]) {
    expect(() => loadConfig(["--project-quotas", bad], {})).toThrow("--project-quotas");
  }
});

test("a flag wins over its env var", () => {
  const c = loadConfig(["--project", "from-flag"], { PUBSUB_PROJECT_ID: "from-env" });
  expect(c.project).toBe("from-flag");
});

test("empty env vars are ignored", () => {
  expect(loadConfig([], { PUBSUB_HOST_PORT: "", PUBSUB_PROJECT1: "" })).toEqual(DEFAULTS);
});

test("PUBSUB_PROJECT<N> are read in numeric order, env before --provision flags", () => {
  const env = { PUBSUB_PROJECT10: "ten,t", PUBSUB_PROJECT2: "two,t", PUBSUB_PROJECT1: "one,t", PUBSUB_PROJECT_ID: "id", PUBSUB_PROJECT0: "zero,t", PUBSUB_PROJECTX: "x,t" };
  const c = loadConfig(["--provision", "flag,t"], env);
  expect(c.provision).toEqual(["one,t", "two,t", "ten,t", "flag,t"]);
  expect(c.project).toBe("id");
});

test("--provision repeats; the defaults are never shared between loads", () => {
  expect(loadConfig(["--provision", "a,t", "--provision=b,t"], {}).provision).toEqual(["a,t", "b,t"]);
  expect(loadConfig([], {}).provision).toEqual([]);
  expect(DEFAULTS.provision).toEqual([]);
});

describe("log levels: ours and gcloud's --verbosity words", () => {
  test.each([
    ["debug", "debug"],
    ["info", "info"],
    ["warn", "warn"],
    ["warning", "warn"],
    ["error", "error"],
    ["critical", "error"],
    ["none", "silent"],
    ["silent", "silent"],
    ["DEBUG", "debug"],
  ])("%s → %s", (word, level) => {
    expect(loadConfig(["--verbosity", word], {}).logLevel).toBe(level as Config["logLevel"]);
    expect(loadConfig([], { PUBSUB_LOG_LEVEL: word }).logLevel).toBe(level as Config["logLevel"]);
  });
});

describe("bad values stop the start naming the flag", () => {
  test.each([
    [["--host-port", "8085"], "--host-port must be HOST:PORT"],
    [["--host-port", "h:99999"], "--host-port port must be an integer from 0 to 65535"],
    [["--max-messages-per-response", "0"], "--max-messages-per-response must be an integer from 1 to 1000"],
    [["--pull-wait-ms", "soon"], "--pull-wait-ms must be an integer"],
    [["--log-level", "loud"], "--log-level must be debug, info, warn, error or silent"],
    [["--log-format", "yaml"], "--log-format must be text or json"],
    [["--nope", "1"], "unknown flag --nope"],
    [["--config"], "--config needs a value"],
  ])("%j", (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(message);
  });

  test("in an env var too", () => {
    expect(() => loadConfig([], { PUBSUB_FILL_WAIT_MS: "-1" })).toThrow("--fill-wait-ms must be an integer from 0 to 10000");
  });
});

test("--max-memory takes sizes with binary suffixes, and refuses nonsense naming the flag", () => {
  expect(loadConfig(["--max-memory", "2G"], {}).maxMemory).toBe(2 * 2 ** 30);
  expect(loadConfig(["--max-memory", "1.5GiB"], {}).maxMemory).toBe(1.5 * 2 ** 30);
  expect(loadConfig(["--max-memory", "100000000"], {}).maxMemory).toBe(100_000_000);
  expect(loadConfig(["--max-memory", "0"], {}).maxMemory).toBe(0);
  for (const bad of ["1x", "-5M", "1K"]) expect(() => loadConfig(["--max-memory", bad], {})).toThrow("--max-memory");
});
