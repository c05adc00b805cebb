/** What /proc says of a server process: the start-up benches' CPU and memory readings (Linux only). */
import { readFileSync, readdirSync } from "node:fs";

/** On-CPU time of every thread of `pid` so far (schedstat), in ms. */
export const cpuMs = (pid: number): number =>
  readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
    try {
      return sum + Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
    } catch {
      return sum; // the thread ended between the listing and the read
    }
  }, 0);

/** VmRSS in MB (10^6 bytes), as ps and the issues' figures count it. */
export const rssMb = (pid: number): number => (Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024) / 1e6;
