/**
 * Subscription filters, the real service's grammar: `attributes.k = "v"`, `attributes.k != "v"`,
 * `attributes:k`, `hasPrefix(attributes.k, "p")`, `NOT`/`-`, parentheses, and `AND`/`OR` — which
 * may not be mixed at one level without parentheses. A filter that does not parse is
 * INVALID_ARGUMENT naming `filter`.
 */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";
import type { StoredMessage } from "../message.ts";

type Attrs = Readonly<Record<string, string>>;
type Pred = (a: Attrs) => boolean;

const TOKEN = /\s*(?:(\(|\)|,|!=|=|:|-|\.)|("(?:[^"\\]|\\.)*")|([A-Za-z_][A-Za-z0-9_\-]*))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) throw bad(src, `unexpected character at offset ${pos}`);
    out.push(m[1] ?? m[2] ?? m[3]);
    pos = TOKEN.lastIndex;
  }
  return out;
}

const bad = (src: string, why: string) => invalid(`Invalid filter (filter=${echo(src, 300)}): ${why}.`);

class Parser {
  private i = 0;
  constructor(
    private t: string[],
    private src: string,
  ) {}

  parse(): Pred {
    const p = this.expr();
    if (this.i < this.t.length) throw bad(this.src, `unexpected "${this.t[this.i]}"`);
    return p;
  }

  private peek(): string | undefined {
    return this.t[this.i];
  }

  private take(expected?: string): string {
    const tok = this.t[this.i++];
    if (tok === undefined) throw bad(this.src, "unexpected end of filter");
    if (expected !== undefined && tok !== expected) throw bad(this.src, `expected "${expected}" but found "${tok}"`);
    return tok;
  }

  private expr(): Pred {
    const first = this.term();
    const op = this.peek();
    if (op !== "AND" && op !== "OR") return first;
    const terms = [first];
    while (this.peek() === "AND" || this.peek() === "OR") {
      if (this.take() !== op) throw bad(this.src, "AND and OR cannot be mixed without parentheses");
      terms.push(this.term());
    }
    return op === "AND" ? (a) => terms.every((p) => p(a)) : (a) => terms.some((p) => p(a));
  }

  private term(): Pred {
    const tok = this.peek();
    if (tok === "NOT" || tok === "-") {
      this.take();
      const inner = this.term();
      return (a) => !inner(a);
    }
    if (tok === "(") {
      this.take();
      const inner = this.expr();
      this.take(")");
      return inner;
    }
    if (tok === "hasPrefix") {
      this.take();
      this.take("(");
      const key = this.attributeKey();
      this.take(",");
      const prefix = this.string();
      this.take(")");
      return (a) => Object.hasOwn(a, key) && a[key].startsWith(prefix);
    }
    this.take("attributes");
    if (this.peek() === ":") {
      this.take();
      const key = this.key();
      return (a) => Object.hasOwn(a, key);
    }
    this.take(".");
    const key = this.key();
    const op = this.take();
    if (op !== "=" && op !== "!=") throw bad(this.src, `expected "=" or "!=" after attributes.${key}`);
    const value = this.string();
    return op === "=" ? (a) => a[key] === value && Object.hasOwn(a, key) : (a) => !Object.hasOwn(a, key) || a[key] !== value;
  }

  private attributeKey(): string {
    this.take("attributes");
    this.take(".");
    return this.key();
  }

  private key(): string {
    const tok = this.take();
    if (tok.startsWith('"')) return unquote(tok, this.src);
    if (!/^[A-Za-z_]/.test(tok)) throw bad(this.src, `"${tok}" is not an attribute key`);
    return tok;
  }

  private string(): string {
    const tok = this.take();
    if (!tok.startsWith('"')) throw bad(this.src, `expected a quoted string but found "${tok}"`);
    return unquote(tok, this.src);
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * The value of a quoted string token. Escapes are JSON's; an unknown escape, or a raw control
 * character (NUL included) inside the quotes, does not parse.
 */
function unquote(tok: string, src: string): string {
  let out = "";
  for (let i = 1; i < tok.length - 1; i++) {
    const c = tok[i];
    if (c.charCodeAt(0) < 0x20 || c === "\x7f") throw bad(src, "a quoted string may not contain control characters; escape them");
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = tok[++i];
    if (e === "u" && /^[0-9A-Fa-f]{4}$/.test(tok.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(tok.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (Object.hasOwn(ESCAPES, e)) out += ESCAPES[e];
    else throw bad(src, `invalid escape sequence "\\${e}" in a quoted string`);
  }
  return out;
}

/** Compiles a filter; the empty filter takes every message. */
export function compileFilter(filter: string): (msg: StoredMessage) => boolean {
  if (!filter.trim()) return () => true;
  const pred = new Parser(tokenize(filter), filter).parse();
  return (msg) => pred(msg.attributes);
}
