/** Every RPC of the served services that has no handler yet answers UNIMPLEMENTED, on every transport. */
import { PubSubError } from "../core/errors.ts";
import { SERVICES, serviceMethods, type ServiceName } from "./services.ts";
import type { UnaryRpc } from "./contract.ts";

export function unimplementedRpcs(): [string, UnaryRpc][] {
  const out: [string, UnaryRpc][] = [];
  for (const service of Object.keys(SERVICES) as ServiceName[]) {
    for (const [method, m] of Object.entries(serviceMethods(service))) {
      if (m.requestStream) continue;
      out.push([
        `${service}.${method}`,
        () => {
          throw new PubSubError("UNIMPLEMENTED", `${method} is not implemented by this emulator yet.`);
        },
      ]);
    }
  }
  return out;
}
