/** google.iam.v1.IAMPolicy for topics, subscriptions, snapshots and schemas: calls on the broker's policies. */
import type { Broker } from "../core/broker.ts";
import type { AuditConfig, Binding, Policy } from "../core/iam.ts";
import type { ServiceRpcs } from "./contract.ts";
import type { Policy as PolicyProto } from "../../protos/types/google/iam/v1/Policy";
import type { Binding__Output } from "../../protos/types/google/iam/v1/Binding";

/** Audit configs go back as they came: the core keeps their log types by the names proto-loader decoded. */
function policyToProto(p: Policy): PolicyProto {
  return { version: p.version, bindings: p.bindings, auditConfigs: p.auditConfigs as PolicyProto["auditConfigs"], etag: Buffer.from(p.etag) };
}

function bindingsFromProto(bindings: Binding__Output[] | undefined): Binding[] {
  return (bindings ?? []).map((b) => {
    const out: Binding = { role: b.role ?? "", members: b.members ?? [] };
    if (b.condition) out.condition = b.condition;
    return out;
  });
}

export function iamRpcs(broker: Broker): ServiceRpcs<"IAMPolicy"> {
  const iam = broker.iam;
  return {
    SetIamPolicy: (req) => {
      const p = req.policy ?? {};
      const policy = iam.set(
        req.resource ?? "",
        // Audit configs are kept as decoded (a field the client left out stays absent).
        { version: p.version ?? 0, bindings: bindingsFromProto(p.bindings), auditConfigs: (p.auditConfigs ?? []) as AuditConfig[], etag: p.etag },
        req.updateMask?.paths ?? [],
      );
      return policyToProto(policy);
    },
    GetIamPolicy: (req) => policyToProto(iam.get(req.resource ?? "")),
    TestIamPermissions: (req) => ({ permissions: iam.test(req.resource ?? "", req.permissions ?? []) }),
  };
}
