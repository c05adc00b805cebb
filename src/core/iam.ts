/**
 * IAM policies of topics, subscriptions, snapshots and schemas, as google.iam.v1.IAMPolicy keeps
 * them: stored per resource with an etag for read-modify-write, never enforced (the emulator
 * grants every permission it is asked about).
 */
import { PubSubError, bounded, invalid } from "./errors.ts";

export interface Expr {
  expression?: string;
  title?: string;
  description?: string;
  location?: string;
}

export interface Binding {
  role: string;
  members: string[];
  condition?: Expr;
}

export interface AuditConfig {
  service: string;
  auditLogConfigs: { logType: string; exemptedMembers: string[] }[];
}

export interface Policy {
  version: number;
  bindings: Binding[];
  auditConfigs: AuditConfig[];
  etag: Uint8Array;
}

export interface PolicyRecord {
  resource: string;
  policy: Policy;
}

/** Where every change of a policy is written (the broker's store). */
export interface PolicyWriter {
  putPolicy(resource: string, policy: Policy): void;
  deletePolicy(resource: string): void;
}

const NO_WRITER: PolicyWriter = { putPolicy() {}, deletePolicy() {} };

export type PolicyInput = Partial<Omit<Policy, "etag">> & { etag?: Uint8Array };

/** The etag of a resource that never had a policy set ("ACAB" in base64), as the real service sends. */
const EMPTY_ETAG = Uint8Array.of(0x00, 0x20, 0x01);
const MAX_MEMBERS = 1500;
const MAX_STRING = 2048;
const MAX_EXPRESSION = 12_800;
const MAX_AUDIT_CONFIGS = 100;
const MEMBER = /^(allUsers|allAuthenticatedUsers|(user|serviceAccount|group|domain|deleted:user|deleted:serviceAccount|deleted:group|projectOwner|projectEditor|projectViewer|principal|principalSet):.+)$/;
const ROLE = /^((projects|organizations)\/[^/]+\/)?roles\/[A-Za-z0-9_.]+$/;
const MASKABLE = new Set(["bindings", "etag", "audit_configs", "version"]);
const ABORTED = "There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.";

export class IamPolicies {
  private policies = new Map<string, Policy>();
  private seq = 0;

  /** `exists` throws NOT_FOUND (or INVALID_ARGUMENT) unless the resource exists. */
  constructor(
    private exists: (resource: string) => void,
    private writer: PolicyWriter = NO_WRITER,
  ) {}

  /** Takes back the policies a store kept; one whose resource is gone is forgotten there too. */
  restore(records: readonly PolicyRecord[]): void {
    for (const { resource, policy } of records) {
      try {
        this.exists(resource);
      } catch {
        this.writer.deletePolicy(resource);
        continue;
      }
      this.policies.set(resource, policy);
    }
  }

  get(resource: string): Policy {
    this.exists(resource);
    return this.policies.get(resource) ?? { version: 0, bindings: [], auditConfigs: [], etag: EMPTY_ETAG };
  }

  /**
   * Replaces the masked fields (default: bindings and etag). A non-empty etag that is not the
   * stored one means someone else changed the policy since it was read: ABORTED.
   */
  set(resource: string, input: PolicyInput, maskPaths: readonly string[] = []): Policy {
    const current = this.get(resource);
    if (input.etag?.length && !sameBytes(input.etag, current.etag)) throw new PubSubError("ABORTED", ABORTED);
    const paths = new Set(maskPaths.length ? maskPaths : ["bindings", "etag"]);
    for (const p of paths) if (!MASKABLE.has(p)) throw invalid(`Invalid update_mask path "${bounded(p)}": expected bindings, etag, audit_configs or version.`);
    const bindings = paths.has("bindings") ? normalizeBindings(input.bindings ?? []) : current.bindings;
    const auditConfigs = paths.has("audit_configs") ? checkAuditConfigs(input.auditConfigs ?? []) : current.auditConfigs;
    const requested = paths.has("version") ? (input.version ?? 0) : current.version;
    if (![0, 1, 3].includes(requested)) throw invalid(`Invalid policy.version: ${requested}. It must be 1 or 3.`);
    const conditional = bindings.some((b) => b.condition);
    if (conditional && requested < 3 && paths.has("version")) {
      throw invalid("policy.version must be 3 when a binding has a condition.");
    }
    const version = conditional ? 3 : Math.max(requested, 1);
    const policy: Policy = { version, bindings, auditConfigs, etag: this.nextEtag() };
    this.policies.set(resource, policy);
    this.writer.putPolicy(resource, policy);
    return policy;
  }

  /** Every permission asked for is granted: the emulator does not enforce IAM. */
  test(resource: string, permissions: readonly string[]): string[] {
    this.exists(resource);
    for (const p of permissions) {
      if (!p || p.includes("*")) throw invalid(`Invalid permission "${bounded(p)}": permissions with wildcards are not allowed.`);
    }
    return [...permissions];
  }

  /** The lifecycle feature: a removed resource's policy goes with it. */
  readonly lifecycle = { removed: (r: { readonly name: string }) => this.drop(r.name) };

  /** The resource was deleted: a resource created later under its name starts without a policy. */
  drop(resource: string): void {
    if (this.policies.delete(resource)) this.writer.deletePolicy(resource);
  }

  /** Forgets the policies of every resource whose name starts with `prefix` ("" = all). */
  clear(prefix = ""): void {
    for (const name of [...this.policies.keys()]) if (name.startsWith(prefix)) this.drop(name);
  }

  /** Eight bytes, the shape of the real service's etags ("BwX…" in base64). */
  private nextEtag(): Uint8Array {
    const n = ++this.seq;
    const etag = new Uint8Array(8);
    etag[0] = 0x07;
    for (let i = 1; i < 8; i++) etag[i] = i < 5 ? Math.floor(Math.random() * 256) : (n >>> ((7 - i) * 8)) & 0xff;
    return etag;
  }
}

/** Bindings of one role (and condition) merge, members are deduplicated, empty bindings dropped. */
function normalizeBindings(bindings: readonly Binding[]): Binding[] {
  const byKey = new Map<string, Binding>();
  let members = 0;
  for (const b of bindings) {
    const role = b.role ?? "";
    if (!ROLE.test(role) || role.length > MAX_STRING) throw invalid(`Invalid role "${bounded(role)}" in policy.bindings: expected roles/{role}.`);
    const condition = b.condition ? checkCondition(b.condition) : undefined;
    const key = JSON.stringify([role, condition ?? null]);
    let merged = byKey.get(key);
    if (!merged) byKey.set(key, (merged = condition ? { role, members: [], condition } : { role, members: [] }));
    for (const m of b.members ?? []) {
      if (m.length > MAX_STRING || !MEMBER.test(m)) {
        throw invalid(`Invalid member "${bounded(m)}" in policy.bindings (role ${bounded(role)}): expected user:, serviceAccount:, group:, domain:, allUsers or allAuthenticatedUsers.`);
      }
      if (merged.members.includes(m)) continue;
      merged.members.push(m);
      if (++members > MAX_MEMBERS) throw invalid(`policy.bindings has more than ${MAX_MEMBERS} members; the maximum is ${MAX_MEMBERS}.`);
    }
  }
  return [...byKey.values()].filter((b) => b.members.length > 0);
}

/** Audit configs are stored as given, within the same bounds as bindings. */
function checkAuditConfigs(configs: readonly AuditConfig[]): AuditConfig[] {
  let members = 0;
  if (configs.length > MAX_AUDIT_CONFIGS) throw invalid(`policy.audit_configs has more than ${MAX_AUDIT_CONFIGS} entries.`);
  return configs.map((c) => {
    const logs = c.auditLogConfigs ?? [];
    if (logs.length > 10) throw invalid("policy.audit_configs.audit_log_configs has more than 10 entries.");
    for (const l of logs) {
      members += l.exemptedMembers?.length ?? 0;
      if (l.exemptedMembers?.some((m) => m.length > MAX_STRING)) members = Infinity;
    }
    if (members > MAX_MEMBERS || (c.service ?? "").length > MAX_STRING) {
      throw invalid(`policy.audit_configs is too large: at most ${MAX_MEMBERS} exempted members of at most ${MAX_STRING} characters.`);
    }
    return { service: c.service ?? "", auditLogConfigs: logs.map((l) => ({ logType: l.logType, exemptedMembers: [...(l.exemptedMembers ?? [])] })) };
  });
}

function checkCondition(c: Expr): Expr {
  const expression = c.expression ?? "";
  if (!expression) throw invalid("policy.bindings.condition.expression is required when a condition is set.");
  if (expression.length > MAX_EXPRESSION) throw invalid(`policy.bindings.condition.expression is longer than ${MAX_EXPRESSION} characters.`);
  for (const f of [c.title, c.description, c.location]) if (f && f.length > MAX_STRING) throw invalid("policy.bindings.condition fields must be at most 2048 characters.");
  const out: Expr = { expression };
  if (c.title) out.title = c.title;
  if (c.description) out.description = c.description;
  if (c.location) out.location = c.location;
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
