/**
 * The memory budget under every cap (issue 28): address-space and data limits (RLIMIT_AS,
 * RLIMIT_DATA) from 512 MiB to 4 GiB in 256 MiB steps, and memory cgroups from 256 MiB up. At each
 * step the server either starts with a budget that takes messages, refuses past it with
 * RESOURCE_EXHAUSTED while alive, drains and takes messages again — or refuses to start with a
 * message naming the cap and the flag to use. Never a crash, never a budget that refuses everything.
 * Messages of 4 KiB, 256 to a Publish (1 MiB), so a step costs seconds.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ulimit, underCaps } from "../helpers/fill-drain.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const MIB = 2 ** 20;
/**
 * The server from source, or a compiled binary (MEMORY_MATRIX_BINARY=dist/pubsub-emulator-linux-x64,
 * as .ci/release runs it): the binary maps differently at start, so it gets its own run.
 */
const BINARY = process.env.MEMORY_MATRIX_BINARY;
const COMMAND = BINARY ? [resolve(BINARY)] : undefined;
const FILL = { messageBytes: 4096, batch: 256, maxBatches: 1500, minAccepted: 1000 };

forEachGrpcServer((grpcServer) => {
  const caps = underCaps(grpcServer);

  /** Runs the server under `wrap`; returns "refused to start" with its output, or runs it through fill, drain, refill. */
  async function lifeUnderCap(wrap: string[], capWords: RegExp, startWords: RegExp): Promise<string> {
    try {
      await caps.start(wrap, [], COMMAND);
    } catch (e) {
      const output = (e as Error).message;
      // Refusing to start is allowed only this way: exit 1, the cap named, the flag to use named.
      expect(output).toMatch(/server exited with code 1 before its ready line/);
      expect(output).toMatch(startWords);
      expect(output).toContain("--max-memory");
      return "refused to start";
    }
    const r = await caps.fill(capWords, FILL);
    const by = /memory budget/.test(r.details) ? "the budget" : /RLIMIT|cap|limit/.test(r.details) ? "the gauge" : "?";
    return `took ${r.accepted} messages of 4 KiB, then refused by ${by}: ${r.details.slice(16, 140)}`;
  }

  const steps = (from: number, to: number, by: number) => Array.from({ length: (to - from) / by + 1 }, (_, i) => from + i * by);

  for (const [flag, rlimit] of [
    ["-v", "RLIMIT_AS"],
    ["-d", "RLIMIT_DATA"],
  ] as const) {
    describe(`${rlimit} (ulimit ${flag}), 512 MiB to 4 GiB`, () => {
      for (const mib of steps(512, 4096, 256)) {
        test(`${mib} MiB`, async () => {
          const what = await lifeUnderCap(ulimit(flag, mib * MIB), new RegExp(`memory budget|${rlimit}`), new RegExp(`${rlimit} \\(ulimit ${flag}\\) of ${mib} MiB`));
          console.log(`ulimit ${flag} ${mib} MiB: ${what}`);
        }, 120_000);
      }
    });
  }

  describe("memory cgroup, 256 MiB up", () => {
    for (const mib of [256, 384, 512, 768, 1024, 1536, 2048]) {
      test(`${mib} MiB`, async () => {
        const what = await lifeUnderCap(caps.cgroupWrap(`memory-matrix-${process.pid}-${mib}`, mib * MIB), /memory budget/, /cgroup/);
        console.log(`memory cgroup ${mib} MiB: ${what}`);
      }, 120_000);
    }
  });
});
