/** google.iam.v1.IAMPolicy for topics, subscriptions, snapshots and schemas: calls on the broker's policies. */
import type { Broker } from "../core/broker.ts";
import type { Binding, Policy } from "../core/iam.ts";
import type { ProtoObject, UnaryRpc } from "./contract.ts";

function policyToProto(p: Policy): ProtoObject {
  return { version: p.version, bindings: p.bindings, auditConfigs: p.auditConfigs, etag: Buffer.from(p.etag) };
}

function bindingsFromProto(bindings: ProtoObject[] | undefined): Binding[] {
  return (bindings ?? []).map((b) => {
    const out: Binding = { role: b.role ?? "", members: b.members ?? [] };
    if (b.condition) out.condition = b.condition;
    return out;
  });
}

export function iamRpcs(broker: Broker): Record<string, UnaryRpc> {
  const iam = broker.iam;
  return {
    SetIamPolicy: (req: ProtoObject) => {
      const p = req.policy ?? {};
      const policy = iam.set(
        req.resource,
        { version: p.version ?? 0, bindings: bindingsFromProto(p.bindings), auditConfigs: p.auditConfigs ?? [], etag: p.etag },
        req.updateMask?.paths ?? [],
      );
      return policyToProto(policy);
    },
    GetIamPolicy: (req: ProtoObject) => policyToProto(iam.get(req.resource)),
    TestIamPermissions: (req: ProtoObject) => ({ permissions: iam.test(req.resource, req.permissions ?? []) }),
  };
}
