/** The standard gRPC services every --grpc-server carries on the port, beside Pub/Sub's. */
import { healthMethods, HealthState } from "./health.ts";
import type { StdMethod } from "./method.ts";
import { reflectionMethods } from "./reflection.ts";

export { HealthState };

export function stdMethods(health: HealthState): StdMethod[] {
  return [...healthMethods(health), ...reflectionMethods()];
}
