/**
 * The real `gcloud pubsub` CLI against the emulator's REST API: create, list, publish, pull with
 * --auto-ack, delete. gcloud must be installed (.ci/run installs it); a missing binary fails here.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

const RUN_TIMEOUT_MS = 60_000;
let emu: TestEmulator;
let config: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  config = mkdtempSync(join(tmpdir(), "gcloud-config-"));
});
afterAll(async () => {
  await emu?.close();
  if (config) rmSync(config, { recursive: true, force: true });
});

/** Runs `gcloud pubsub …`; resolves with its stdout, rejects with its stderr on failure or after a minute. */
async function gcloud(...args: string[]): Promise<string> {
  const proc = Bun.spawn(["gcloud", "pubsub", ...args], {
    env: {
      ...process.env,
      CLOUDSDK_CONFIG: config,
      CLOUDSDK_CORE_PROJECT: PROJECT,
      CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB: `http://${emu.endpoint}/`,
      CLOUDSDK_AUTH_DISABLE_CREDENTIALS: "true",
      CLOUDSDK_CORE_DISABLE_PROMPTS: "1",
      CLOUDSDK_CORE_DISABLE_USAGE_REPORTING: "true",
      CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK: "true",
      CLOUDSDK_SURVEY_DISABLE_PROMPTS: "true",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill(), RUN_TIMEOUT_MS);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`gcloud pubsub ${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

/** `gcloud pubsub topics create` of a new topic, then `subscriptions create` of a new one (`subPrefix`-…) on it with `flags`. */
async function topicAndSub(subPrefix: string, ...flags: string[]): Promise<{ topic: string; sub: string }> {
  const topic = unique("gc-topic");
  const sub = unique(subPrefix);
  await gcloud("topics", "create", topic);
  await gcloud("subscriptions", "create", sub, "--topic", topic, ...flags);
  return { topic, sub };
}

test("gcloud is installed (CI installs it; nothing here is skipped)", () => {
  expect(Bun.which("gcloud")).not.toBeNull();
});

test(
  "a gcloud pubsub session: create, list, publish, pull --auto-ack, delete",
  async () => {
    const { topic, sub } = await topicAndSub("gc-sub", "--ack-deadline", "30");

    const topics = JSON.parse(await gcloud("topics", "list", "--format=json")) as { name: string }[];
    expect(topics.map((t) => t.name)).toContain(`projects/${PROJECT}/topics/${topic}`);
    const described = JSON.parse(await gcloud("subscriptions", "describe", sub, "--format=json"));
    expect(described).toMatchObject({ topic: `projects/${PROJECT}/topics/${topic}`, ackDeadlineSeconds: 30 });

    const published = JSON.parse(await gcloud("topics", "publish", topic, "--message", "hello gcloud", "--attribute", "k=v,team=a", "--format=json"));
    expect(published.messageIds).toHaveLength(1);

    const pulled = JSON.parse(await gcloud("subscriptions", "pull", sub, "--auto-ack", "--limit", "5", "--format=json")) as {
      ackStatus?: string;
      message: { data: string; attributes: Record<string, string>; messageId: string };
    }[];
    expect(pulled).toHaveLength(1);
    expect(Buffer.from(pulled[0].message.data, "base64").toString()).toBe("hello gcloud");
    expect(pulled[0].message.attributes).toEqual({ k: "v", team: "a" });
    expect(pulled[0].message.messageId).toBe(published.messageIds[0]);
    // --auto-ack acknowledged it: nothing is left to deliver.
    expect(JSON.parse(await gcloud("subscriptions", "pull", sub, "--auto-ack", "--format=json"))).toEqual([]);

    await gcloud("subscriptions", "delete", sub);
    await gcloud("topics", "delete", topic);
    const after = JSON.parse(await gcloud("topics", "list", "--format=json")) as { name: string }[];
    expect(after.map((t) => t.name)).not.toContain(`projects/${PROJECT}/topics/${topic}`);
  },
  5 * RUN_TIMEOUT_MS,
);

test(
  "gcloud creates a BigQuery subscription; the service's rules answer its mistakes",
  async () => {
    const { topic, sub } = await topicAndSub("gc-bq", `--bigquery-table=${PROJECT}.ds.events`, "--write-metadata");
    const described = JSON.parse(await gcloud("subscriptions", "describe", sub, "--format=json"));
    // No --bigquery-dir on this server: the table cannot exist.
    expect(described.bigqueryConfig).toMatchObject({ table: `${PROJECT}.ds.events`, writeMetadata: true, state: "NOT_FOUND" });
    const refused = await gcloud("subscriptions", "create", unique("gc-bq"), "--topic", topic, `--bigquery-table=${PROJECT}.ds.events`, "--drop-unknown-fields").catch((e: Error) => e.message);
    expect(refused).toContain("drop_unknown_fields");
    const pulled = await gcloud("subscriptions", "pull", sub, "--format=json").catch((e: Error) => e.message);
    expect(pulled).toContain("not supported for BigQuery subscriptions");
  },
  5 * RUN_TIMEOUT_MS,
);

test(
  "gcloud pubsub message-transforms validate and test; topics create --message-transforms-file",
  async () => {
    const upper = { javascriptUdf: { functionName: "upper", code: "function upper(m, md) { m.data = m.data.toUpperCase(); m.attributes.by = 'udf'; return m; }" } };
    const drop = { javascriptUdf: { functionName: "drop", code: "function drop(m) { return m.attributes.skip ? null : m; }" } };
    const boom = { javascriptUdf: { functionName: "boom", code: "function boom(m) { throw new Error('no thanks'); }" } };
    const one = join(config, "one.json");
    const list = join(config, "list.yaml");
    const broken = join(config, "broken.json");
    writeFileSync(one, JSON.stringify(upper));
    writeFileSync(list, JSON.stringify([drop, upper, boom]));
    writeFileSync(broken, JSON.stringify({ javascriptUdf: { functionName: "broken", code: "function broken(m) { return m" } }));

    await gcloud("message-transforms", "validate", "--message-transform-file", one);
    await expect(gcloud("message-transforms", "validate", "--message-transform-file", broken)).rejects.toThrow(/INVALID_ARGUMENT|not valid/);

    // gcloud prints one entry per step: a transformed message (data decoded), or the filtered/failed marker.
    type Step = { data?: string; attributes?: Record<string, string>; filteredMessage?: object; failedMessage?: { error: { code: number; message: string } } };
    const steps = JSON.parse(await gcloud("message-transforms", "test", "--message", "hi", "--message-transforms-file", list, "--format=json")) as Step[];
    expect(steps).toHaveLength(3);
    expect(steps[0]).toEqual({ data: "hi" });
    expect(steps[1]).toEqual({ data: "HI", attributes: { by: "udf" } });
    expect(steps[2].failedMessage!.error.code).toBe(3);
    expect(steps[2].failedMessage!.error.message).toContain("no thanks");
    const filtered = JSON.parse(await gcloud("message-transforms", "test", "--attribute", "skip=1", "--message-transforms-file", list, "--format=json"));
    expect(filtered).toEqual([{ filteredMessage: {} }]);

    const topic = unique("gc-smt");
    await gcloud("topics", "create", topic, "--message-transforms-file", join(config, "list.yaml"));
    const described = JSON.parse(await gcloud("topics", "describe", topic, "--format=json"));
    expect(described.messageTransforms.map((t: typeof upper) => t.javascriptUdf.functionName)).toEqual(["drop", "upper", "boom"]);
    const viaTopic = JSON.parse(await gcloud("message-transforms", "test", "--message", "x", "--topic", topic, "--format=json")) as Step[];
    expect(viaTopic.map((s) => s.data ?? "failed")).toEqual(["x", "X", "failed"]);
    const sub = unique("gc-smt-sub");
    const upperList = join(config, "upper-list.json");
    writeFileSync(upperList, JSON.stringify([upper]));
    await gcloud("subscriptions", "create", sub, "--topic", topic, "--message-transforms-file", upperList);
    const viaSub = JSON.parse(await gcloud("message-transforms", "test", "--message", "y", "--subscription", sub, "--format=json")) as Step[];
    expect(viaSub).toEqual([{ data: "Y", attributes: { by: "udf" } }]);
  },
  RUN_TIMEOUT_MS * 4,
);

test(
  "gcloud: a Cloud Storage subscription and a Cloud Storage import topic created, described, and a gs:// bucket refused",
  async () => {
    const topic = unique("gc-gcs");
    await gcloud("topics", "create", topic);
    const sub = unique("gc-gcs-sub");
    await gcloud("subscriptions", "create", sub, "--topic", topic, "--cloud-storage-bucket=gc-bucket", "--cloud-storage-file-prefix=in/",
      "--cloud-storage-file-datetime-format=YYYY-MM-DD/hh_mm_ssZ", "--cloud-storage-max-duration=2m", "--cloud-storage-max-messages=5000",
      "--cloud-storage-output-format=avro", "--cloud-storage-write-metadata");
    const described = JSON.parse(await gcloud("subscriptions", "describe", sub, "--format=json"));
    expect(described.cloudStorageConfig).toMatchObject({
      bucket: "gc-bucket", filenamePrefix: "in/", filenameDatetimeFormat: "YYYY-MM-DD/hh_mm_ssZ", maxDuration: "120s", maxMessages: "5000",
      avroConfig: { writeMetadata: true }, state: "NOT_FOUND",
    });
    await expect(gcloud("subscriptions", "create", unique("gc-gcs-bad"), "--topic", topic, "--cloud-storage-bucket=gs://gc-bucket"))
      .rejects.toThrow('without any prefix like "gs://"');
    const imp = unique("gc-import");
    await gcloud("topics", "create", imp, "--cloud-storage-ingestion-bucket=gc-bucket", "--cloud-storage-ingestion-input-format=text",
      "--cloud-storage-ingestion-text-delimiter=,", "--cloud-storage-ingestion-match-glob=in/**");
    const t = JSON.parse(await gcloud("topics", "describe", imp, "--format=json"));
    expect(t.ingestionDataSourceSettings.cloudStorage).toMatchObject({ bucket: "gc-bucket", textFormat: { delimiter: "," }, matchGlob: "in/**" });
    expect(t.state).toBe("INGESTION_RESOURCE_ERROR");
    expect(t.ingestionDataSourceSettings.cloudStorage.state).toBe("BUCKET_NOT_FOUND");
  },
  RUN_TIMEOUT_MS * 4,
);
