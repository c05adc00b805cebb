/** The command line's words: our verbs, gcloud's `beta emulators pubsub …`, ignored gcloud flags. */
import { describe, expect, test } from "bun:test";
import { parseCommand, UsageError } from "../../src/cli/command.ts";
import { clientAddress, envInit } from "../../src/cli/address.ts";
import { usage } from "../../src/cli/help.ts";
import { OPTIONS } from "../../src/runtime/config.ts";

describe("verbs", () => {
  test.each([
    [[], "start", []],
    [["--host-port", "0.0.0.0:1"], "start", ["--host-port", "0.0.0.0:1"]],
    [["start", "--project", "p"], "start", ["--project", "p"]],
    [["env-init"], "env-init", []],
    [["healthcheck", "--host-port=h:1"], "healthcheck", ["--host-port=h:1"]],
    [["help"], "help", []],
    [["version"], "version", []],
    [["--version"], "version", ["--version"]],
    [["start", "--log-level", "debug", "--help"], "help", ["--log-level", "debug", "--help"]],
    [["-h"], "help", ["-h"]],
  ] as const)("%j → %s", (argv, verb, args) => {
    const c = parseCommand(argv);
    expect(c.verb).toBe(verb);
    expect(c.args).toEqual([...args]);
    expect(c.gcloud).toBe(false);
    expect(c.warnings).toEqual([]);
  });

  test("an unknown verb is a usage error naming it", () => {
    expect(() => parseCommand(["serve"])).toThrow(UsageError);
    expect(() => parseCommand(["serve"])).toThrow('unknown command "serve"');
  });
});

describe("gcloud's command line", () => {
  test.each([
    ["gcloud beta emulators pubsub start --host-port 0.0.0.0:8085 --project=P", "start", ["--host-port", "0.0.0.0:8085", "--project=P"]],
    ["gcloud beta emulators pubsub start --host-port=0.0.0.0:8085", "start", ["--host-port=0.0.0.0:8085"]],
    ["gcloud emulators pubsub start", "start", []],
    ["beta emulators pubsub start --data-dir /data", "start", ["--data-dir", "/data"]],
    ["emulators pubsub env-init", "env-init", []],
    ["gcloud alpha emulators pubsub env-init --data-dir=/d", "env-init", ["--data-dir=/d"]],
    ["gcloud beta emulators pubsub start --verbosity=debug", "start", ["--verbosity=debug"]],
  ])("%s", (line, verb, args) => {
    const c = parseCommand(line.split(" "));
    expect(c).toEqual({ verb, args, warnings: [], gcloud: true } as never);
  });

  test("flags that mean nothing here are dropped with one warning each, with their values", () => {
    const c = parseCommand(
      "gcloud beta emulators pubsub start --log-http --format json --account=a@b.c --user-output-enabled -q --host-port h:1 --no-user-output-enabled".split(" "),
    );
    expect(c.args).toEqual(["--host-port", "h:1"]);
    expect(c.warnings.map((w) => w.split(":")[0])).toEqual([
      "ignoring gcloud flag --log-http",
      "ignoring gcloud flag --format",
      "ignoring gcloud flag --account",
      "ignoring gcloud flag --user-output-enabled",
      "ignoring gcloud flag -q",
      "ignoring gcloud flag --no-user-output-enabled",
    ]);
  });

  test("ignored gcloud flags are not accepted outside gcloud's command line", () => {
    expect(parseCommand(["--log-http"]).args).toEqual(["--log-http"]);
  });

  test("other gcloud commands and verbs are usage errors", () => {
    expect(() => parseCommand("gcloud pubsub topics create t".split(" "))).toThrow("only \"gcloud beta emulators pubsub start|env-init\"");
    expect(() => parseCommand("gcloud beta emulators datastore start".split(" "))).toThrow(UsageError);
    expect(() => parseCommand("gcloud beta emulators pubsub healthcheck".split(" "))).toThrow("known: start, env-init");
  });
});

describe("env-init", () => {
  test.each([
    ["localhost", 8085, "localhost:8085"],
    ["0.0.0.0", 8085, "localhost:8085"],
    ["::", 9000, "localhost:9000"],
    ["::1", 9000, "[::1]:9000"],
    ["10.0.0.7", 1, "10.0.0.7:1"],
  ])("%s:%d → %s", (host, port, address) => {
    expect(clientAddress({ host, port })).toBe(address);
    expect(envInit({ host, port })).toBe(`export PUBSUB_EMULATOR_HOST=${address}\n`);
  });

  test("the healthcheck reaches a wildcard address on 127.0.0.1, with no name lookup", () => {
    expect(clientAddress({ host: "0.0.0.0", port: 8085 }, "127.0.0.1")).toBe("127.0.0.1:8085");
    expect(clientAddress({ host: "::", port: 8085 }, "127.0.0.1")).toBe("127.0.0.1:8085");
    expect(clientAddress({ host: "localhost", port: 8085 }, "127.0.0.1")).toBe("localhost:8085");
  });
});

test("--help lists every flag, alias and env var of the table", () => {
  const text = usage();
  for (const o of OPTIONS) {
    expect(text).toContain(o.flag);
    for (const a of o.aliases ?? []) expect(text).toContain(a);
    expect(text).toContain(o.env.replace("<N>", "1"));
  }
  expect(text).toContain("gcloud beta emulators pubsub start");
});
