/**
 * The server's transform engine: the process's QuickJS engine compiles (create and update check
 * UDFs in the caller's turn, TestMessageTransforms and synchronous callers run them), and a
 * worker pool of its own per server runs the traffic (none with 0 workers).
 */
import type { TransformEngine } from "../core/stages/transform-engine.ts";
import { loadQuickJsEngine } from "./quickjs-engine.ts";
import { WorkerPool } from "./udf-pool.ts";

export async function loadPooledEngine(workers: number): Promise<TransformEngine & { close(): void }> {
  const engine = await loadQuickJsEngine();
  const pool = workers > 0 ? new WorkerPool(workers) : null;
  return {
    compile: (name, code) => engine.compile(name, code),
    pool,
    close: () => pool?.close(),
  };
}
