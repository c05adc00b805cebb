/**
 * Every kind of memory cap the process can live under, each on a real server child: an
 * address-space limit (`ulimit -v`, RLIMIT_AS), a data limit (`ulimit -d`, RLIMIT_DATA) and a
 * memory cgroup. Publishing 1 KiB messages into a subscription nobody reads, the publish past the
 * budget is RESOURCE_EXHAUSTED (never a crash, never a kernel kill); the server then drains what it
 * holds to a subscriber and takes publishes again. Every loop is bounded in count.
 */
import { describe, expect, test } from "bun:test";
import { parseRlimits, rlimitGauges } from "../../src/runtime/memory-limit.ts";
import { ulimit, underCaps } from "../helpers/fill-drain.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const MIB = 2 ** 20;

forEachGrpcServer((grpcServer) => {
  const caps = underCaps(grpcServer);

  /** Starts a server under `wrap` and runs it through fill, drain and refill. */
  async function fillDrainRefill(wrap: string[], capWords: RegExp, args: string[] = []) {
    await caps.start(wrap, args);
    return caps.fill(capWords);
  }

  describe("reading the limits", () => {
    const limits = `Limit                     Soft Limit           Hard Limit           Units
Max data size             536870912            unlimited            bytes
Max stack size            8388608              unlimited            bytes
Max address space         unlimited            unlimited            bytes
`;
    test("soft RLIMIT_AS and RLIMIT_DATA from /proc/self/limits; unlimited is none", () => {
      expect(parseRlimits(limits)).toEqual({ addressSpace: null, data: 512 * MIB });
      const gauges = rlimitGauges(parseRlimits(limits));
      expect(gauges.map((g) => g.what)).toEqual(["data segment"]);
      expect(gauges[0]!.limit).toBeLessThan(512 * MIB);
      expect(gauges[0]!.cap).toContain("RLIMIT_DATA");
      // Nothing at all is admitted only near the limit itself, past the gauge's own limit.
      expect(gauges[0]!.hard!).toBeGreaterThan(gauges[0]!.limit);
      expect(gauges[0]!.hard!).toBeLessThan(512 * MIB);
      expect(gauges[0]!.used()).toBeGreaterThan(0);
      expect(rlimitGauges(parseRlimits(""))).toEqual([]);
    });
  });

  describe("under each cap the publish past the budget is RESOURCE_EXHAUSTED and the server serves on", () => {
    test("address space: ulimit -v 1 GiB", async () => {
      const r = await fillDrainRefill(ulimit("-v", 1024 * MIB), /memory budget|RLIMIT_AS/);
      // The budget is a share of the room left under the limit, so far less than 1 GiB of messages.
      expect(r.accepted * 1024).toBeLessThan(512 * MIB);
    }, 120_000);

    test("address space: ulimit -v 1 GiB with --max-memory far above it: the sampled address space refuses", async () => {
      await fillDrainRefill(ulimit("-v", 1024 * MIB), /address space .* RLIMIT_AS/, ["--max-memory", "8G"]);
    }, 120_000);

    test("data segment: ulimit -d 768 MiB", async () => {
      await fillDrainRefill(ulimit("-d", 768 * MIB), /memory budget|RLIMIT_DATA/);
    }, 120_000);

    test("memory cgroup of 384 MiB", async () => {
      await fillDrainRefill(caps.cgroupWrap(`memory-caps-${process.pid}`, 384 * MIB), /memory budget/);
    }, 120_000);
  });
});
