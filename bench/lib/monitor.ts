// Samples server and client resources while a measurement runs. The machine's total CPU
// (from /proc/stat) is recorded too: "other" is what neither the server nor this process
// used, i.e. noise from anything else running on the host.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

/** [busy, total] jiffies over all CPUs. */
function machineJiffies(): [number, number] | null {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3]! + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return [total - idle, total];
  } catch { return null; }
}
import type { ServerHandle, ServerSample } from "./server.ts";

export interface Resources {
  wallS: number;
  server: { peakRssBytes: number | null; peakHeapBytes: number | null; cpuPct: number | null; fdsEnd: number | null; fdsPeak: number | null;
    /** CPU % of the server's main (JS) thread alone; it cannot use more than one core. */
    mainThreadCpuPct?: number | null };
  client: { peakRssBytes: number; peakHeapBytes: number; cpuPct: number };
  /** CPU % in units of one core (2 cores = 200 %); other = machine - server - client. */
  machine: { busyPct: number | null; otherPct: number | null; loadavg1: number };
  samples: ServerSample[];
}

export class Monitor {
  private samples: ServerSample[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private t0 = performance.now();
  private cpu0 = process.cpuUsage();
  private mach0: [number, number] | null = null;
  private first: ServerSample | null = null;
  private cliPeakRss = 0;
  private cliPeakHeap = 0;
  private busy = false;

  constructor(private server: ServerHandle, private intervalMs = 250, private keep = false) {}

  async start(): Promise<this> {
    this.first = await this.server.sample();
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
    this.mach0 = machineJiffies();
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    return this;
  }

  private async tick() {
    if (this.busy) return;
    this.busy = true;
    try {
      const s = await this.server.sample();
      this.samples.push(s);
      if (!this.keep && this.samples.length > 4096) this.samples.splice(1, 2048); // keep first
      const m = process.memoryUsage();
      this.cliPeakRss = Math.max(this.cliPeakRss, m.rss);
      this.cliPeakHeap = Math.max(this.cliPeakHeap, m.heapUsed);
    } finally { this.busy = false; }
  }

  /** Latest server sample (taken now). */
  sampleNow() { return this.server.sample(); }

  /** The periodic samples taken at or after `t` (ms since epoch). */
  since(t: number): ServerSample[] { return this.samples.filter((s) => s.t >= t); }

  async stop(): Promise<Resources> {
    if (this.timer) clearInterval(this.timer);
    await this.tick();
    const wallS = (performance.now() - this.t0) / 1000;
    const c = process.cpuUsage(this.cpu0);
    const last = this.samples[this.samples.length - 1] ?? null;
    const max = (f: (s: ServerSample) => number | null) => {
      let m: number | null = null;
      for (const s of this.samples) { const v = f(s); if (v != null) m = m == null ? v : Math.max(m, v); }
      return m;
    };
    const srvCpu = this.first?.cpuMicros != null && last?.cpuMicros != null
      ? ((last.cpuMicros - this.first.cpuMicros) / 1e6 / wallS) * 100 : null;
    const srvMain = this.first?.mainCpuMicros != null && last?.mainCpuMicros != null
      ? ((last.mainCpuMicros - this.first.mainCpuMicros) / 1e6 / wallS) * 100 : null;
    const m1 = machineJiffies();
    const ncpu = navigator.hardwareConcurrency || 1;
    const busyPct = this.mach0 && m1 ? ((m1[0] - this.mach0[0]) / (m1[1] - this.mach0[1])) * 100 * ncpu : null;
    const cliPct = ((c.user + c.system) / 1e6 / wallS) * 100;
    return {
      wallS,
      machine: { busyPct, otherPct: busyPct != null && srvCpu != null ? Math.max(0, busyPct - srvCpu - cliPct) : null, loadavg1: loadavg()[0]! },
      server: { peakRssBytes: max((s) => s.rssBytes), peakHeapBytes: max((s) => s.heapUsedBytes), cpuPct: srvCpu, fdsEnd: last?.fds ?? null, fdsPeak: max((s) => s.fds), mainThreadCpuPct: srvMain },
      client: { peakRssBytes: this.cliPeakRss, peakHeapBytes: this.cliPeakHeap, cpuPct: cliPct },
      samples: this.keep ? this.samples : [],
    };
  }
}

/** Machine CPU busy % (units of one core) over the next `ms`. */
export async function machineBusy(ms = 1000): Promise<number | null> {
  const a = machineJiffies();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineJiffies();
  return a && b ? ((b[0] - a[0]) / (b[1] - a[1])) * 100 * (navigator.hardwareConcurrency || 1) : null;
}

/** Waits (at most maxMs) until the host is nearly idle; returns the last busy % seen. */
export async function waitForQuiet(maxMs: number, thresholdPct = 25): Promise<number | null> {
  const end = performance.now() + maxMs;
  let busy: number | null = null;
  do {
    busy = await machineBusy(1000);
    if (busy == null || busy < thresholdPct) return busy;
  } while (performance.now() < end);
  return busy;
}
