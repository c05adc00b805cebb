/**
 * What grpc.health.v1.Health reports, shared by one emulator's servers: the server ("") and each
 * Pub/Sub service are SERVING while it runs and NOT_SERVING once it drains (stop(), SIGTERM).
 */
import { SERVICES } from "../../rpc/services.ts";

export const HEALTH_SERVICES: ReadonlySet<string> = new Set(["", ...Object.values(SERVICES)]);

export type ServingStatus = "SERVING" | "NOT_SERVING" | "SERVICE_UNKNOWN";

export class HealthState {
  private draining = false;
  private readonly watchers = new Set<(s: ServingStatus) => void>();

  status(service: string): ServingStatus {
    if (!HEALTH_SERVICES.has(service)) return "SERVICE_UNKNOWN";
    return this.draining ? "NOT_SERVING" : "SERVING";
  }

  /** Everything is NOT_SERVING from now on; each watcher hears it. */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    for (const w of [...this.watchers]) w("NOT_SERVING");
  }

  get isDraining(): boolean {
    return this.draining;
  }

  watch(fn: (s: ServingStatus) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }
}
