/**
 * The standard gRPC services every --grpc-server carries on the port beside Pub/Sub's: their
 * paths and shapes, each loaded on its first call (contract.ts).
 */
import { SERVICES } from "../../rpc/services.ts";
import type { StdMethod } from "./contract.ts";
import type { HealthMethod } from "./health.ts";
import { HealthState } from "./health-state.ts";

export { HealthState };

const REFLECTION_PACKAGES = ["grpc.reflection.v1", "grpc.reflection.v1alpha"];

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= load());
}

export function stdMethods(health: HealthState): StdMethod[] {
  const healthMethod = (name: HealthMethod, responseStream: boolean): StdMethod => {
    const path = `/grpc.health.v1.Health/${name}`;
    return { path, requestStream: false, responseStream, load: once(() => import("./health.ts").then((m) => m.healthHandler(name, path, health))) };
  };
  const reflection = (pkg: string): StdMethod => ({
    path: `/${pkg}.ServerReflection/ServerReflectionInfo`,
    requestStream: true,
    responseStream: true,
    load: once(() => import("./reflection.ts").then((m) => m.reflectionHandler(pkg, listed))),
  });
  const methods = [healthMethod("Check", false), healthMethod("Watch", true), healthMethod("List", false), ...REFLECTION_PACKAGES.map(reflection)];
  const listed = [...Object.values(SERVICES), ...new Set(methods.map((m) => m.path.split("/")[1]!))];
  return methods;
}
