// The scenarios `bun bench/run.ts` and `bun bench/run.ts compare` know, by name: each file exports
// run(ctx) and is imported only when its scenario runs.
import { join } from "node:path";

const at = (file: string) => join(import.meta.dir, file);

export const SCENARIOS: Record<string, string> = {
  throughput: at("throughput.ts"),
  firehose: at("firehose.ts"),
  fanout: at("fanout.ts"),
  "thundering-herd": at("thundering-herd.ts"),
  latency: at("latency.ts"),
  pull: at("pull.ts"),
  ordering: at("ordering.ts"),
  saturation: at("saturation.ts"),
  soak: at("soak.ts"),
  rest: at("rest.ts"),
  transforms: at("transforms.ts"),
};
export const ALIASES: Record<string, string> = { herd: "thundering-herd", "fan-out": "fanout" };
