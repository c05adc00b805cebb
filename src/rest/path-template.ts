/**
 * google.api.http path templates (google/api/http.proto): `/v1/{name=projects/*\/topics/*}:publish`,
 * `{resource=**}`, literal segments and a trailing custom verb. A template compiles once; matching
 * binds each variable's field path to the segments it covered, percent-decoded.
 */

type Segment = { kind: "literal"; text: string } | { kind: "star" } | { kind: "rest" };

interface Variable {
  /** Dotted field path, e.g. "topic.name". */
  field: string;
  /** Index of its first segment and how many it spans (-1: the rest of the path). */
  start: number;
  count: number;
}

export interface PathTemplate {
  readonly source: string;
  readonly verb: string;
  readonly segments: readonly Segment[];
  readonly variables: readonly Variable[];
}

function parseSegment(text: string): Segment {
  if (text === "*") return { kind: "star" };
  if (text === "**") return { kind: "rest" };
  if (!text || /[{}=*]/.test(text)) throw new Error(`bad path template segment "${text}"`);
  return { kind: "literal", text };
}

/** Compiles a template; throws on one this parser does not understand (a descriptor bug, found by the route test). */
export function parseTemplate(source: string): PathTemplate {
  if (!source.startsWith("/")) throw new Error(`path template must start with "/": ${source}`);
  let body = source.slice(1);
  let verb = "";
  const lastSlash = body.lastIndexOf("/");
  const colon = body.indexOf(":", Math.max(lastSlash, body.lastIndexOf("}")));
  if (colon >= 0) {
    verb = body.slice(colon + 1);
    body = body.slice(0, colon);
  }
  const segments: Segment[] = [];
  const variables: Variable[] = [];
  const re = /\{([^}=]+)(?:=([^}]*))?\}|([^/]+)/g;
  for (const m of body.matchAll(re)) {
    if (m[3] !== undefined) {
      segments.push(parseSegment(m[3]));
      continue;
    }
    const inner = (m[2] ?? "*").split("/").map(parseSegment);
    const start = segments.length;
    segments.push(...inner);
    variables.push({ field: m[1], start, count: inner.some((s) => s.kind === "rest") ? -1 : inner.length });
  }
  const restAt = segments.findIndex((s) => s.kind === "rest");
  if (restAt >= 0 && restAt !== segments.length - 1) throw new Error(`"**" must end the path template: ${source}`);
  return { source, verb, segments, variables };
}

/** Decodes one segment; a "/" encoded inside a single-segment variable stays encoded. */
function decode(segment: string, keepSlash: boolean): string | undefined {
  try {
    return keepSlash ? segment.split(/%2f/i).map(decodeURIComponent).join("%2F") : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Matches raw path segments (without the verb); returns the variable bindings, or undefined.
 * "**" matches one or more segments.
 */
export function matchTemplate(t: PathTemplate, parts: readonly string[]): Map<string, string> | undefined {
  const segs = t.segments;
  const hasRest = segs.length > 0 && segs[segs.length - 1].kind === "rest";
  if (hasRest ? parts.length < segs.length : parts.length !== segs.length) return undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (s.kind === "literal" && s.text !== parts[i]) return undefined;
    if (s.kind !== "literal" && parts[i] === "") return undefined;
  }
  const bound = new Map<string, string>();
  for (const v of t.variables) {
    const raw = v.count < 0 ? parts.slice(v.start) : parts.slice(v.start, v.start + v.count);
    const decoded: string[] = [];
    for (const p of raw) {
      const d = decode(p, raw.length > 1 || v.count < 0);
      if (d === undefined) return undefined;
      decoded.push(d);
    }
    bound.set(v.field, decoded.join("/"));
  }
  return bound;
}
