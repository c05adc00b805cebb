/**
 * The resources the status rows share, created through the transport under test: each transport
 * builds its own, so the set-up calls run over both as well.
 */
import { unique } from "../../helpers/emulator.ts";
import type { Client } from "../transports.ts";
import { AVRO, PARENT, snapPath, subPath, topicPath, type Fixtures, type Obj } from "./row.ts";

/** Bytes from either transport: a Buffer over gRPC, base64 over REST. */
const bytes = (v: Buffer | string): Buffer => (typeof v === "string" ? Buffer.from(v, "base64") : v);

export async function createFixtures(client: Client): Promise<Fixtures> {
  const call = (service: string, method: string, req: Obj) => client.call(service, method, req);
  const f = {
    topic: topicPath(),
    sub: subPath(),
    snapshot: snapPath(),
    detached: subPath(),
    otherSub: subPath(),
    eodSub: subPath(),
    pushSub: subPath(),
    bqSub: subPath(),
    btSub: subPath(),
    gcsSub: subPath(),
    schemaTopic: topicPath(),
  };
  const other = topicPath();
  await call("Publisher", "CreateTopic", { name: f.topic });
  await call("Publisher", "CreateTopic", { name: other });
  await call("Subscriber", "CreateSubscription", { name: f.sub, topic: f.topic });
  await call("Subscriber", "CreateSnapshot", { name: f.snapshot, subscription: f.sub });
  await call("Subscriber", "CreateSubscription", { name: f.detached, topic: f.topic });
  await call("Publisher", "DetachSubscription", { subscription: f.detached });
  await call("Subscriber", "CreateSubscription", { name: f.otherSub, topic: other });
  await call("Subscriber", "CreateSubscription", { name: f.eodSub, topic: f.topic, enableExactlyOnceDelivery: true });
  await call("Subscriber", "CreateSubscription", { name: f.pushSub, topic: f.topic, pushConfig: { pushEndpoint: "http://127.0.0.1:9/push" } });

  await call("Subscriber", "CreateSubscription", { name: f.bqSub, topic: f.topic, bigqueryConfig: { table: "test-project.ds.table" } });
  const btTable = "projects/test-project/instances/inst-1/tables/t1";
  await call("Subscriber", "CreateSubscription", { name: f.btSub, topic: f.topic, bigtableConfig: { table: btTable } });
  await call("Subscriber", "CreateSubscription", { name: f.gcsSub, topic: f.topic, cloudStorageConfig: { bucket: "rows-bucket" } });

  const schema = await call("SchemaService", "CreateSchema", { parent: PARENT, schemaId: unique("sch"), schema: { type: "AVRO", definition: AVRO } });
  await call("Publisher", "CreateTopic", { name: f.schemaTopic, schemaSettings: { schema: schema.name, encoding: "JSON" } });

  const read = await call("IAMPolicy", "GetIamPolicy", { resource: f.topic });
  const staleEtag = bytes(read.etag);
  await call("IAMPolicy", "SetIamPolicy", { resource: f.topic, policy: { bindings: [], etag: staleEtag } });

  return { ...f, schema: schema.name, schemaRevision: schema.revisionId, staleEtag };
}
