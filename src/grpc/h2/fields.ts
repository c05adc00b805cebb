/**
 * The rules of RFC 9113 §8.2–§8.3 for a request's header block and for its trailers, checked one
 * field at a time as the HPACK decoder yields them, so the block is walked once. A request that
 * breaks one is malformed: a stream error of type PROTOCOL_ERROR (§8.1.1), never a gRPC answer.
 */

const METHOD = 1;
const SCHEME = 2;
const PATH = 4;
const AUTHORITY = 8;

/** A field name is a lower-case token (RFC 9110 §5.1, RFC 9113 §8.2.1); a pseudo-header's starts with ':'. */
const BAD_NAME = /^$|.:|[^a-z0-9!#$%&'*+\-.^_`|~:]/;
const DIGITS = /^[0-9]{1,15}$/;

/** A value has no NUL, CR or LF, and no whitespace at either end (RFC 9113 §8.2.1). */
function badValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0 || c === 10 || c === 13) return true;
  }
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9;
}

export class FieldCheck {
  private seen = 0;
  private regular = false;
  private trailers = false;
  private connect = false;
  /** The request's content-length, -1 without one. */
  contentLength = -1;
  /** Why the block is malformed, or null. */
  error: string | null = null;
  /** A field with forbidden characters went into the HPACK table: the connection has to end. */
  poisoned = false;

  /** Whether `other` was started for the same kind of block (a request's headers, or trailers). */
  sameStart(other: FieldCheck): boolean {
    return this.trailers === other.trailers;
  }

  /** Takes `other`'s state: the fields it saw, as if they went through this one too. */
  copyFrom(other: FieldCheck): void {
    this.seen = other.seen;
    this.regular = other.regular;
    this.trailers = other.trailers;
    this.connect = other.connect;
    this.contentLength = other.contentLength;
    this.error = other.error;
    this.poisoned = other.poisoned;
  }

  start(trailers: boolean): void {
    this.seen = 0;
    this.regular = false;
    this.trailers = trailers;
    this.connect = false;
    this.contentLength = -1;
    this.error = null;
    this.poisoned = false;
  }

  /**
   * The characters of a field's literal strings (`name` null when it came from a table). Only
   * literals are checked: what a table holds was checked as it entered, and a bad field that
   * entered the dynamic table (`indexed`) poisons it.
   */
  literal(name: string | null, value: string, indexed: boolean): void {
    if ((name !== null && BAD_NAME.test(name)) || badValue(value)) {
      this.fail("A field name is not a lower-case token, or a value has a forbidden character.");
      if (indexed) this.poisoned = true;
    }
  }

  /** A field's place and meaning. */
  field(name: string, value: string): void {
    if (this.error !== null) return;
    if (name.charCodeAt(0) === 58 /* : */) return this.pseudo(name, value);
    this.regular = true;
    switch (name) {
      case "connection":
      case "keep-alive":
      case "proxy-connection":
      case "transfer-encoding":
      case "upgrade":
        return this.fail(`The connection-specific field ${name} is not allowed in HTTP/2.`);
      case "te":
        if (value !== "trailers") this.fail('te may only be "trailers".');
        return;
      case "content-length": {
        if (!DIGITS.test(value)) return this.fail("content-length is not a number.");
        const n = Number(value);
        if (this.contentLength >= 0 && this.contentLength !== n) return this.fail("content-length is given twice with different values.");
        this.contentLength = n;
        return;
      }
    }
  }

  private pseudo(name: string, value: string): void {
    if (this.trailers) return this.fail("Trailers may not carry pseudo-header fields.");
    if (this.regular) return this.fail("A pseudo-header field follows a regular field.");
    let bit: number;
    switch (name) {
      case ":method":
        bit = METHOD;
        this.connect = value === "CONNECT";
        break;
      case ":scheme":
        bit = SCHEME;
        break;
      case ":path":
        bit = PATH;
        if (value.length === 0) return this.fail(":path is empty.");
        break;
      case ":authority":
        bit = AUTHORITY;
        break;
      default:
        return this.fail(`${name.length <= 40 ? name : "A pseudo-header field"} is not a request pseudo-header field.`);
    }
    if (this.seen & bit) return this.fail(`${name} is given twice.`);
    this.seen |= bit;
  }

  /** After the last field: the block's error, or null when it is a well-formed request (or trailers). */
  end(): string | null {
    if (this.error !== null || this.trailers) return this.error;
    if (!(this.seen & METHOD)) this.fail("The request has no :method.");
    // CONNECT names only an authority (RFC 9113 §8.5); every other request a scheme and a path.
    else if (this.connect) {
      if (this.seen & (SCHEME | PATH) || !(this.seen & AUTHORITY)) this.fail("A CONNECT request has :scheme or :path, or no :authority.");
    } else if ((this.seen & (SCHEME | PATH)) !== (SCHEME | PATH)) this.fail("The request has no :scheme or no :path.");
    return this.error;
  }

  private fail(why: string): void {
    this.error = why;
  }
}
