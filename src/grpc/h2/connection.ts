/**
 * One HTTP/2 connection of the raw server (`--grpc-server raw`), on a socket the shared port
 * handed over with its preface unread. It reads frames out of the socket's chunks (a DATA
 * payload stays a view into its chunk), keeps the flow-control windows both ways, answers
 * SETTINGS and PING, and writes everything one job produced in a single socket write. Any
 * protocol error from the client ends the connection with GOAWAY (RFC 9113 §5.4.1) or its stream
 * with RST_STREAM; nothing a client sends throws out of here.
 */
import { DEFAULT_WINDOW, FRAME_HEADER, Flag, H2Error, MAX_WINDOW, MAX_FRAME_SIZE, MIN_FRAME_SIZE, PREFACE_LENGTH, SETTINGS_ACK, Setting, Type, frameHeader, settingsFrame, wordsFrame, writeHeader } from "./frame.ts";
import { CompressionError, HeaderBomb, HeaderDecoder, encodeHeaders, type Headers } from "./hpack.ts";
import { FieldCheck } from "./fields.ts";
import { Budget } from "./budget.ts";
import { H2Stream, type StreamOwner } from "./stream.ts";
import { reportInternal } from "../../runtime/internal-errors.ts";

/** The byte pipe under a connection: a node:net socket or a Bun socket (wire.ts). */
export interface Wire {
  /** Takes the bytes (they are not changed later); false when the caller should wait for drained(). */
  write(b: Buffer): boolean;
  /** Writes what the socket takes now, keeping nothing: the bytes taken (0 while earlier bytes wait). */
  tryWrite?(b: Buffer): number;
  end(): void;
  destroy(): void;
  readonly destroyed: boolean;
  /** Stops and restarts reading (a connection that used up its turn); without them, every chunk is read at once. */
  pause?(): void;
  resume?(): void;
}

export interface ConnectionOptions {
  /** Receive window per stream and per connection. */
  window: number;
  maxConcurrentStreams: number;
  maxHeaderListSize: number;
  /** A new stream with its request headers; runs before any of its DATA is read. */
  onStream(stream: H2Stream, headers: Headers): void;
  /** A stream whose header list was too large, answered by the caller. */
  onOversized(stream: H2Stream): void;
  /** How long a connection past MAX_UNSENT may send nothing before it is ended (default STALL_MS). */
  stallMs?: number;
}

/** Our SETTINGS_MAX_FRAME_SIZE stays the default; a header block (HEADERS and CONTINUATIONs) may be up to this long. */
const MAX_HEADER_BLOCK = 256 * 1024;
/** Control frames (PING and SETTINGS answers) queued for a client that does not read: past this, it is cut off. */
const MAX_CONTROL_BACKLOG = 1024 * 1024;
/** HEADERS + CONTINUATIONs of one block: 16 full frames reach MAX_HEADER_BLOCK; empty ones (CVE-2024-27316) reach this. */
const MAX_BLOCK_FRAMES = 64;
/**
 * Attack budgets (docs/http2-attacks.md, budget.ts), each counted per connection. Past one within
 * its window the connection ends with GOAWAY ENHANCE_YOUR_CALM.
 * Streams the client reset while open, or that we refused (rapid reset, CVE-2023-44487):
 * this many times the concurrent-stream limit per RESET_WINDOW_MS.
 */
const RESETS_PER_LIMIT = 2;
const RESET_WINDOW_MS = 10_000;
/**
 * Of those, the streams the client reset before we answered anything, within PREMATURE_MS of
 * their HEADERS (the rapid reset itself: each costs a call's set-up and gives nothing back):
 * this many per RESET_WINDOW_MS, plus one for each stream we answered to its end in that window.
 * A client cancelling calls it waited on (a Pull past its deadline, a StreamingPull on close) is
 * not counted; one that opens and cancels streams at once is cut off after 200, not 2,000: what
 * it costs us is then mostly its connections, which cost it as much.
 */
const PREMATURE_RESETS = 200;
const PREMATURE_MS = 10;
/**
 * Frames that ask for work without moving a request on (PING, SETTINGS, WINDOW_UPDATE, PRIORITY,
 * empty DATA, unknown types): this many per FLOOD_WINDOW_MS, plus FLOOD_PER_DATA_FRAME per DATA
 * frame we sent in it (each may earn a stream and a connection WINDOW_UPDATE, and a BDP ping
 * from grpc-go, grpc-java and grpc-core clients). A well-behaved client sends a handful a
 * second beyond those; each frame past them is work an attacker gets for free.
 */
const FLOOD_FRAMES = 1_000;
const FLOOD_PER_DATA_FRAME = 4;
const FLOOD_WINDOW_MS = 1000;
/**
 * Bytes written to a connection's streams and not yet sent (slow read: many large responses to a
 * client that reads nothing). Past this, with no DATA sent and no drain of the socket for
 * stallMs, the connection ends.
 */
const MAX_UNSENT = 64 * 1024 * 1024;
const STALL_MS = 10_000;
/** The first word of our own PINGs' payload ("ansr"), the second their count. */
const PING_MARK = 0x616e7372;
/** Streams closed lately, remembered to tell a client's error on one (STREAM_CLOSED) from frames it had in flight (ignored). */
const CLOSED_KEPT = 128;

/**
 * Fairness: one read of a connection works at most TURN_MS (the clock read every TURN_CHECK
 * frames), then the socket is paused and the rest read in a later turn of the event loop, so a
 * connection sending floods of cheap or costly frames cannot hold up another's request for longer.
 * MAX_UNREAD bounds what a paused socket may still hand over meanwhile.
 */
const TURN_MS = 1;
const TURN_CHECK = 16;
const MAX_UNREAD = 4 * 1024 * 1024;

/** A PING answer's bytes, and how many share one buffer. */
const PONG = FRAME_HEADER + 8;
const PONGS_PER_BUFFER = 256;

const SCRATCH = 1024 * 1024;
const scratch = Buffer.allocUnsafeSlow(SCRATCH);

/** A frame's 24-bit length (readUIntBE is a native call per frame). */
const lengthAt = (b: Buffer, at: number) => (b[at]! << 16) | (b[at + 1]! << 8) | b[at + 2]!;

class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class H2Connection implements StreamOwner {
  private readonly streams = new Map<number, H2Stream>();
  private readonly sendQueue = new Set<H2Stream>();
  private readonly decoder: HeaderDecoder;
  private readonly check = new FieldCheck();
  /** The last CLOSED_KEPT streams closed: +id after the client's END_STREAM or RST_STREAM, -id reset by us (0: none). */
  private readonly closedIds = new Int32Array(CLOSED_KEPT);
  private closedAt = 0;
  private prefaceLeft = PREFACE_LENGTH;
  /** Bytes of an incomplete frame carried to the next chunk. */
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** Chunks read but not yet parsed: the connection used up its turn (TURN_MS) and yields. */
  private unread: Buffer[] = [];
  private unreadBytes = 0;
  private turnEnds = 0;
  /** When this read turn started: a stream's birth, for telling a premature reset. */
  private turnStart = 0;
  /**
   * Streams opened and not yet handed to onStream: that waits for the turn's next TURN_CHECK
   * boundary, or for a frame that needs its handler (its DATA, its trailers). One the client
   * cancels meanwhile (rapid reset: HEADERS then RST_STREAM) never costs a call's set-up.
   */
  private unstarted: { s: H2Stream; headers: Headers | null; endStream: boolean }[] = [];
  /** A header block being continued: its stream, flags and parts. */
  private block: { stream: number; endStream: boolean; selfDependent: boolean; parts: Buffer[]; bytes: number; frames: number } | null = null;
  private lastStreamId = 0;
  private sendWindow = DEFAULT_WINDOW;
  private recvWindow: number;
  private recvUnacked = 0;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrame = MIN_FRAME_SIZE;
  private out: Buffer[] = [];
  /** PING answers not yet queued: pongs[pongFrom, pongTo). */
  private pongs = Buffer.alloc(0);
  private pongFrom = 0;
  private pongTo = 0;
  private outBytes = 0;
  private flushQueued = false;
  private socketBlocked = false;
  private pumping = false;
  private pumpAgain = false;
  private controlBacklog = 0;
  /** The attack budgets' counts and when their windows started. */
  private readonly resets: Budget;
  private readonly prematureResets: Budget;
  private readonly floods: Budget;
  /** Bytes in the streams' send queues, and when DATA last went out (or the socket drained). */
  private unsent = 0;
  private progressAt: number;
  private stalledCut = false;
  /** DATA moved during this pump: progress, timed once when it ends. */
  private moved = false;
  /** GOAWAY sent: no new streams; the socket ends once the last stream closes. */
  private goingAway = false;
  private dead = false;
  onClose: (() => void) | null = null;
  /** Our PING out (pingAfter()): its ACK's callback, and the count in its payload. */
  private pingAck: (() => void) | null = null;
  private pingsSent = 0;

  private socket!: Wire;

  constructor(private readonly o: ConnectionOptions) {
    this.decoder = new HeaderDecoder(4096, o.maxHeaderListSize);
    this.progressAt = performance.now();
    this.resets = new Budget(RESETS_PER_LIMIT * o.maxConcurrentStreams, RESET_WINDOW_MS, this.progressAt);
    this.prematureResets = new Budget(PREMATURE_RESETS, RESET_WINDOW_MS, this.progressAt);
    this.floods = new Budget(FLOOD_FRAMES, FLOOD_WINDOW_MS, this.progressAt);
    this.recvWindow = o.window;
    this.queue(
      settingsFrame([
        [Setting.MAX_CONCURRENT_STREAMS, o.maxConcurrentStreams],
        [Setting.INITIAL_WINDOW_SIZE, o.window],
        [Setting.MAX_HEADER_LIST_SIZE, o.maxHeaderListSize],
        [Setting.ENABLE_PUSH, 0],
      ]),
    );
    if (o.window > DEFAULT_WINDOW) this.queue(wordsFrame(Type.WINDOW_UPDATE, 0, 0, [o.window - DEFAULT_WINDOW]));
  }

  /**
   * Starts the connection on its wire. Our SETTINGS go out with the answers to the first chunk
   * when it is read in the same turn (the raw front's case: one write, not two, per connection),
   * else at the end of the turn.
   */
  attach(wire: Wire): void {
    this.socket = wire;
  }

  /** The wire took everything written: DATA may flow again. */
  drained(): void {
    this.progressAt = performance.now();
    this.socketBlocked = false;
    this.controlBacklog = 0;
    this.pump();
  }

  // ---- reading

  read(chunk: Buffer): void {
    if (this.dead) return;
    if (this.unreadBytes > 0) {
      // Its turn is over: what the socket still hands over waits behind the rest, and a socket
      // that hands over MAX_UNREAD while paused is read to the end at once.
      this.unread.push(chunk);
      this.unreadBytes += chunk.length;
      if (this.unreadBytes <= MAX_UNREAD) return;
      return this.turn(this.takeUnread(), Infinity);
    }
    this.turn([chunk], TURN_MS);
  }

  private takeUnread(): Buffer[] {
    const chunks = this.unread;
    this.unread = [];
    this.unreadBytes = 0;
    return chunks;
  }

  /** Parses chunks until they are done or the turn is: then the socket pauses and the rest waits for the next turn. */
  private turn(chunks: Buffer[], ms: number): void {
    this.turnStart = performance.now();
    this.turnEnds = this.turnStart + ms;
    try {
      for (let i = 0; i < chunks.length && !this.dead; i++) {
        const rest = this.parse(chunks[i]!);
        this.startStreams();
        if (rest) {
          this.unread = [rest, ...chunks.slice(i + 1)];
          this.unreadBytes = this.unread.reduce((n, b) => n + b.length, 0);
          this.socket.pause?.();
          setImmediate(this.nextTurn);
          break;
        }
      }
    } catch (e) {
      if (e instanceof ConnectionError) this.fail(e.code, e.message);
      else if (e instanceof CompressionError) this.fail(H2Error.COMPRESSION_ERROR, e.message);
      else if (e instanceof HeaderBomb) this.fail(H2Error.ENHANCE_YOUR_CALM, e.message);
      else {
        // A fault of ours, not the client's: reported, and the connection (only) ends.
        reportInternal(e);
        this.fail(H2Error.INTERNAL_ERROR, "The server failed to handle a frame.");
      }
    }
    this.giveBackWindow();
    this.flush();
  }

  private readonly nextTurn = () => {
    if (this.dead) return;
    this.turn(this.takeUnread(), TURN_MS);
    if (this.unreadBytes === 0 && !this.dead) this.socket.resume?.();
  };

  /** Parses a chunk; what is left of it when the turn ends (at a frame's start), or null. */
  private parse(chunk: Buffer): Buffer | null {
    let at = 0;
    if (this.prefaceLeft > 0) {
      // The shared port checked the magic; only skip it.
      at = Math.min(this.prefaceLeft, chunk.length);
      this.prefaceLeft -= at;
    }
    if (this.carryBytes > 0) {
      // Complete the frame cut at the last chunk's end; only its own bytes are copied.
      if (this.carryBytes < FRAME_HEADER) {
        const take = Math.min(FRAME_HEADER - this.carryBytes, chunk.length - at);
        this.carry.push(chunk.subarray(at, at + take));
        this.carryBytes += take;
        at += take;
        if (this.carryBytes < FRAME_HEADER) return null;
        this.carry = [Buffer.concat(this.carry, this.carryBytes)];
      }
      const length = lengthAt(this.carry[0]!, 0);
      this.checkLength(length);
      const total = FRAME_HEADER + length;
      const take = Math.min(total - this.carryBytes, chunk.length - at);
      this.carry.push(chunk.subarray(at, at + take));
      this.carryBytes += take;
      at += take;
      if (this.carryBytes < total) return null;
      const frame = this.carry.length === 1 ? this.carry[0]! : Buffer.concat(this.carry, total);
      this.carry = [];
      this.carryBytes = 0;
      this.frameAt(frame, 0, length);
    }
    // A wire that cannot pause is read to the end.
    const yields = this.socket.pause !== undefined;
    for (let frames = 1; !this.dead; frames++) {
      const left = chunk.length - at;
      if (left < FRAME_HEADER) break;
      const length = lengthAt(chunk, at);
      this.checkLength(length);
      if (left < FRAME_HEADER + length) break;
      this.frameAt(chunk, at, length);
      at += FRAME_HEADER + length;
      if (frames % TURN_CHECK !== 0) continue;
      // The handlers' time counts in the turn's.
      this.startStreams();
      if (yields && at < chunk.length && performance.now() > this.turnEnds) return chunk.subarray(at);
    }
    if (at < chunk.length && !this.dead) {
      this.carry = [chunk.subarray(at)];
      this.carryBytes = chunk.length - at;
    }
    return null;
  }

  private frameAt(buf: Buffer, at: number, length: number): void {
    const type = buf[at + 3]!;
    const id = buf.readUInt32BE(at + 5) & 0x7fffffff;
    // A well-formed PING, the cheapest frame to flood with, is answered from the chunk: no view of it is made.
    if (type === Type.PING && length === 8 && id === 0 && !this.block) return this.ping(buf[at + 4]!, buf, at + FRAME_HEADER);
    // Nor of a RST_STREAM (half the frames of a rapid reset): its error code is not acted on.
    if (type === Type.RST_STREAM && !this.block) return this.rstStream(id, length);
    this.frame(type, buf[at + 4]!, id, buf.subarray(at + FRAME_HEADER, at + FRAME_HEADER + length));
  }

  private checkLength(length: number): void {
    if (length > MIN_FRAME_SIZE) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, `A frame of ${length} bytes is larger than SETTINGS_MAX_FRAME_SIZE (16384).`);
  }

  private frame(type: number, flags: number, id: number, p: Buffer): void {
    if (this.block && type !== Type.CONTINUATION) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "A header block was not continued.");
    switch (type) {
      case Type.DATA:
        return this.data(flags, id, p);
      case Type.HEADERS:
        return this.headers(flags, id, p);
      case Type.CONTINUATION:
        if (!this.block || this.block.stream !== id) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "CONTINUATION without a header block.");
        return this.addToBlock(p, flags);
      case Type.PRIORITY:
        if (id === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "PRIORITY on stream 0.");
        if (p.length !== 5) return this.resetStream(id, H2Error.FRAME_SIZE_ERROR);
        // Priority is not acted on, but a stream that depends on itself is still an error (RFC 7540 §5.3.1).
        if ((p.readUInt32BE(0) & 0x7fffffff) === id) return this.resetStream(id, H2Error.PROTOCOL_ERROR);
        return this.flooding();
      case Type.RST_STREAM:
        return this.rstStream(id, p.length);
      case Type.SETTINGS:
        return this.settings(flags, id, p);
      case Type.PUSH_PROMISE:
        throw new ConnectionError(H2Error.PROTOCOL_ERROR, "A client may not send PUSH_PROMISE.");
      case Type.PING:
        if (id !== 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "PING on a stream.");
        if (p.length !== 8) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "PING must be 8 bytes.");
        return this.ping(flags, p, 0);
      case Type.GOAWAY:
        if (id !== 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "GOAWAY on a stream.");
        if (p.length < 8) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "GOAWAY must be at least 8 bytes.");
        this.drain();
        return;
      case Type.WINDOW_UPDATE:
        return this.windowUpdate(id, p);
      default:
        // Unknown frame types are ignored (RFC 9113 §4.1).
        return this.flooding();
    }
  }

  /** A PING's answer is written beside the others of this turn in one buffer, queued as one view (endPongs). */
  private ping(flags: number, src: Buffer, at: number): void {
    // The ACK of our own PING (pingAfter) is not the client asking for work.
    if (flags & Flag.ACK && this.pingAck && src.readUInt32BE(at) === PING_MARK && src.readUInt32BE(at + 4) === this.pingsSent) return this.pingAcked();
    this.flooding();
    if (flags & Flag.ACK) return;
    if (this.pongTo + PONG > this.pongs.length) {
      this.endPongs();
      this.pongs = Buffer.allocUnsafe(PONG * PONGS_PER_BUFFER);
      this.pongFrom = this.pongTo = 0;
    }
    writeHeader(this.pongs, this.pongTo, 8, Type.PING, Flag.ACK, 0);
    src.copy(this.pongs, this.pongTo + FRAME_HEADER, at, at + 8);
    this.pongTo += PONG;
    this.scheduleFlush();
  }

  /** The PING answers written since the last call go into the queue, in their place among the frames. */
  private endPongs(): void {
    if (this.pongTo === this.pongFrom) return;
    const b = this.pongs.subarray(this.pongFrom, this.pongTo);
    this.pongFrom = this.pongTo;
    this.control(b);
  }

  private unpad(flags: number, p: Buffer): Buffer {
    if (!(flags & Flag.PADDED)) return p;
    if (p.length < 1 || p[0]! >= p.length) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "Padding is longer than the frame.");
    return p.subarray(1, p.length - p[0]!);
  }

  private data(flags: number, id: number, p: Buffer): void {
    if (id === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "DATA on stream 0.");
    if (p.length > this.recvWindow) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "DATA past the connection's window.");
    this.recvWindow -= p.length;
    this.recvUnacked += p.length;
    const s = this.startedStream(id);
    if (!s || s.remoteClosed) {
      if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "DATA on an idle stream.");
      // A stream the client ended or reset is told STREAM_CLOSED (RFC 9113 §5.1), once; DATA on
      // one we reset may have been in flight and is dropped. The bytes still count for the window.
      if (s) this.reset(s, H2Error.STREAM_CLOSED);
      else if (this.forgetClosed(id)) this.resetId(id, H2Error.STREAM_CLOSED);
      return;
    }
    if (p.length > s.recvWindow) return this.reset(s, H2Error.FLOW_CONTROL_ERROR);
    s.recvWindow -= p.length;
    s.recvUnacked += p.length;
    const body = this.unpad(flags, p);
    if (s.contentLength >= 0) {
      s.received += body.length;
      if (s.received > s.contentLength) return this.reset(s, H2Error.PROTOCOL_ERROR);
    }
    if (body.length) s.emit("data", body);
    else if (!(flags & Flag.END_STREAM)) this.flooding();
    if (flags & Flag.END_STREAM && !s.closed) this.endRemote(s);
    else if (!s.closed && s.recvUnacked >= this.o.window / 2) {
      this.queue(wordsFrame(Type.WINDOW_UPDATE, 0, id, [s.recvUnacked]));
      s.recvWindow += s.recvUnacked;
      s.recvUnacked = 0;
    }
  }

  private giveBackWindow(): void {
    if (this.recvUnacked >= this.o.window / 4 && !this.dead) {
      this.queue(wordsFrame(Type.WINDOW_UPDATE, 0, 0, [this.recvUnacked]));
      this.recvWindow += this.recvUnacked;
      this.recvUnacked = 0;
    }
  }

  private headers(flags: number, id: number, p: Buffer): void {
    if (id === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "HEADERS on stream 0.");
    let body = this.unpad(flags, p);
    let selfDependent = false;
    if (flags & Flag.PRIORITY) {
      if (body.length < 5) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "HEADERS too short for its priority.");
      selfDependent = (body.readUInt32BE(0) & 0x7fffffff) === id;
      body = body.subarray(5);
    }
    this.block = { stream: id, endStream: (flags & Flag.END_STREAM) !== 0, selfDependent, parts: [], bytes: 0, frames: 0 };
    this.addToBlock(body, flags);
  }

  private addToBlock(p: Buffer, flags: number): void {
    const b = this.block!;
    b.bytes += p.length;
    if (b.bytes > MAX_HEADER_BLOCK) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, `A header block is larger than ${MAX_HEADER_BLOCK} bytes.`);
    if (++b.frames > MAX_BLOCK_FRAMES) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, `A header block spans more than ${MAX_BLOCK_FRAMES} frames.`);
    b.parts.push(p);
    if (!(flags & Flag.END_HEADERS)) return;
    this.block = null;
    this.check.start(this.streams.has(b.stream));
    const headers = this.decoder.decode(b.parts.length === 1 ? b.parts[0]! : Buffer.concat(b.parts, b.bytes), this.check);
    // RFC 9113 §5.4.1 lets a stream error end the connection: here later blocks could name the field by index.
    if (this.check.poisoned) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "A field with forbidden characters was added to the HPACK table.");
    const malformed = this.check.end() !== null || b.selfDependent;
    this.headerBlock(b.stream, b.endStream, headers, malformed);
  }

  /** A decoded header block; `malformed` (RFC 9113 §8.1.1) makes it a stream error, never a call. */
  private headerBlock(id: number, endStream: boolean, headers: Headers | null, malformed: boolean): void {
    const existing = this.startedStream(id);
    if (existing) {
      // Trailers from the client: they must end the stream, and the client must not have ended it already.
      if (existing.remoteClosed) return this.reset(existing, H2Error.STREAM_CLOSED);
      if (!endStream || malformed) return this.reset(existing, H2Error.PROTOCOL_ERROR);
      return this.endRemote(existing);
    }
    if (id % 2 === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "HEADERS on a server-initiated stream id.");
    if (id <= this.lastStreamId) {
      // Trailers the client sent before our RST_STREAM reached it are ignored (RFC 9113 §5.1).
      if (this.closedIds.includes(-id)) return;
      if (this.closedIds.includes(id)) throw new ConnectionError(H2Error.STREAM_CLOSED, "HEADERS on a stream the client ended.");
      throw new ConnectionError(H2Error.PROTOCOL_ERROR, "HEADERS on a closed stream id.");
    }
    this.lastStreamId = id;
    if (this.goingAway) return this.resetId(id, H2Error.REFUSED_STREAM);
    if (this.streams.size >= this.o.maxConcurrentStreams) {
      this.resetId(id, H2Error.REFUSED_STREAM);
      return this.resetting();
    }
    const length = this.check.contentLength;
    if (malformed || (endStream && length > 0)) return this.resetId(id, H2Error.PROTOCOL_ERROR);
    const s = new H2Stream(id, this, this.peerInitialWindow, this.o.window);
    s.contentLength = length;
    s.openedAt = this.turnStart;
    this.streams.set(id, s);
    this.unstarted.push({ s, headers, endStream });
  }

  /** Hands the streams opened so far to their handlers, in order; those closed meanwhile are dropped. */
  private startStreams(): void {
    if (this.unstarted.length === 0) return;
    const list = this.unstarted;
    this.unstarted = [];
    for (const { s, headers, endStream } of list) {
      s.started = true;
      if (s.closed) continue;
      if (headers) this.o.onStream(s, headers);
      else this.o.onOversized(s);
      if (endStream && !s.closed) s.endRemote();
    }
  }

  /** Stream `id` if open, started first (with those opened before it) when a frame is for its handler. */
  private startedStream(id: number): H2Stream | undefined {
    const s = this.streams.get(id);
    if (!s || s.started) return s;
    this.startStreams();
    return this.streams.get(id);
  }

  /** The client's END_STREAM: a request shorter than its content-length is malformed. */
  private endRemote(s: H2Stream): void {
    if (s.contentLength >= 0 && s.received !== s.contentLength) return this.reset(s, H2Error.PROTOCOL_ERROR);
    s.endRemote();
  }

  private rstStream(id: number, length: number): void {
    if (id === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "RST_STREAM on stream 0.");
    if (length !== 4) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "RST_STREAM must be 4 bytes.");
    if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "RST_STREAM on an idle stream.");
    this.peerReset(id);
  }

  /** The client's RST_STREAM: the stream closes, and the client may send nothing more on it. */
  private peerReset(id: number): void {
    const s = this.streams.get(id);
    if (!s) return this.flooding();
    const premature = !s.responded && this.turnStart - s.openedAt < PREMATURE_MS;
    s.remoteClosed = true;
    s.destroy();
    this.resetting();
    if (premature && !this.prematureResets.spend()) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, "Too many streams cancelled before their answer.");
  }

  /** Whether the client ended or reset stream `id` lately; it is then forgotten, so one error answers it. */
  private forgetClosed(id: number): boolean {
    const at = this.closedIds.indexOf(id);
    if (at >= 0) this.closedIds[at] = 0;
    return at >= 0;
  }

  private rememberClosed(signedId: number): void {
    this.closedIds[this.closedAt++ % CLOSED_KEPT] = signedId;
  }

  private settings(flags: number, id: number, p: Buffer): void {
    if (id !== 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "SETTINGS on a stream.");
    this.flooding();
    if (flags & Flag.ACK) {
      if (p.length) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "A SETTINGS acknowledgement has a payload.");
      return;
    }
    if (p.length % 6) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "SETTINGS is not a multiple of 6 bytes.");
    // The streams' windows move once per frame, by the last initial window it gives: a frame of
    // 2,730 entries must not walk every stream 2,730 times.
    let window = this.peerInitialWindow;
    for (let i = 0; i < p.length; i += 6) {
      const key = p.readUInt16BE(i);
      const value = p.readUInt32BE(i + 2);
      if (key === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE is over 2^31-1.");
        window = value;
      } else if (key === Setting.MAX_FRAME_SIZE) {
        if (value < MIN_FRAME_SIZE || value > MAX_FRAME_SIZE) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE out of range.");
        this.peerMaxFrame = value;
      } else if (key === Setting.ENABLE_PUSH && value > 1) {
        throw new ConnectionError(H2Error.PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH must be 0 or 1.");
      }
    }
    this.control(SETTINGS_ACK);
    const delta = window - this.peerInitialWindow;
    if (delta === 0) return;
    this.peerInitialWindow = window;
    for (const s of this.streams.values()) {
      s.sendWindow += delta;
      if (s.sendWindow > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "A stream window passed 2^31-1.");
    }
    if (delta > 0) this.wakeAll();
  }

  private windowUpdate(id: number, p: Buffer): void {
    if (p.length !== 4) throw new ConnectionError(H2Error.FRAME_SIZE_ERROR, "WINDOW_UPDATE must be 4 bytes.");
    const n = p.readUInt32BE(0) & 0x7fffffff;
    this.flooding();
    if (id === 0) {
      if (n === 0) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "A WINDOW_UPDATE of 0.");
      this.sendWindow += n;
      if (this.sendWindow > MAX_WINDOW) throw new ConnectionError(H2Error.FLOW_CONTROL_ERROR, "The connection window passed 2^31-1.");
      // Streams waiting for the connection's window are still in the send queue (a flood of these finds it empty).
      if (this.sendQueue.size) this.pump();
      return;
    }
    const s = this.streams.get(id);
    if (!s) {
      if (id > this.lastStreamId) throw new ConnectionError(H2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on an idle stream.");
      return;
    }
    if (n === 0) return this.reset(s, H2Error.PROTOCOL_ERROR);
    s.sendWindow += n;
    if (s.sendWindow > MAX_WINDOW) return this.reset(s, H2Error.FLOW_CONTROL_ERROR);
    if (s.pendingBytes) this.wake(s);
  }

  // ---- attack budgets

  /** A stream the client reset while open, or one we refused. */
  private resetting(): void {
    if (!this.resets.spend()) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, "Too many streams reset or refused.");
  }

  /** A frame that asks for work without moving a request on. */
  private flooding(): void {
    if (!this.floods.spend()) throw new ConnectionError(H2Error.ENHANCE_YOUR_CALM, "Too many control frames.");
  }

  held(bytes: number): void {
    this.unsent += bytes;
    if (bytes <= 0 || this.unsent <= MAX_UNSENT || this.stalledCut) return;
    if (performance.now() - this.progressAt < (this.o.stallMs ?? STALL_MS)) return;
    // Ended after the write that found it (from inside a stream's write, not under it).
    this.stalledCut = true;
    queueMicrotask(() => this.fail(H2Error.ENHANCE_YOUR_CALM, `More than ${MAX_UNSENT} bytes unsent and nothing read for ${this.o.stallMs ?? STALL_MS} ms.`));
  }

  // ---- writing

  /** Sends a PING after what is queued; `onAck` runs on its ACK, or when the connection is gone. False while one is out. */
  pingAfter(onAck: () => void): boolean {
    if (this.pingAck || this.dead) return false;
    this.pingAck = onAck;
    this.control(wordsFrame(Type.PING, 0, 0, [PING_MARK, (this.pingsSent = (this.pingsSent + 1) >>> 0)]));
    return true;
  }

  private pingAcked(): void {
    const fn = this.pingAck;
    this.pingAck = null;
    fn?.();
  }

  private queue(b: Buffer): void {
    if (this.pongTo !== this.pongFrom) this.endPongs();
    this.out.push(b);
    this.outBytes += b.length;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** A frame owed to the client whatever the windows; a client that never reads them is cut off. */
  private control(b: Buffer): void {
    if (this.socketBlocked) {
      this.controlBacklog += b.length;
      if (this.controlBacklog > MAX_CONTROL_BACKLOG) return this.fail(H2Error.ENHANCE_YOUR_CALM, "Too many control frames unread.");
    }
    this.queue(b);
  }

  private flush(): void {
    if (this.pongTo !== this.pongFrom) this.endPongs();
    this.flushQueued = false;
    if (this.out.length === 0 || !this.socket || this.socket.destroyed) {
      this.out = [];
      this.outBytes = 0;
      return;
    }
    const out = this.out;
    this.out = [];
    this.outBytes = 0;
    if (!this.socket.tryWrite || out.length === 1) {
      if (!this.socket.write(out.length === 1 ? out[0]! : Buffer.concat(out))) this.socketBlocked = true;
      return;
    }
    // One buffer reused for every write (a fresh megabyte per response costs its page faults),
    // filled and written a piece at a time: its size bounds what it keeps resident. What the
    // socket does not take waits as views of the frames themselves, so nothing is copied twice.
    const tryWrite = this.socket.tryWrite.bind(this.socket);
    let used = 0;
    let first = 0;
    for (let i = 0; i < out.length; i++) {
      const b = out[i]!;
      if (used > 0 && used + b.length > SCRATCH) {
        const n = tryWrite(scratch.subarray(0, used));
        if (n < used) return this.blockedFrom(out, first, n);
        used = 0;
        first = i;
      }
      if (b.length >= SCRATCH) {
        const n = tryWrite(b);
        if (n < b.length) return this.blockedFrom(out, i, n);
        first = i + 1;
        continue;
      }
      scratch.set(b, used);
      used += b.length;
    }
    if (used > 0) {
      const n = tryWrite(scratch.subarray(0, used));
      if (n < used) this.blockedFrom(out, first, n);
    }
  }

  /** The socket took `skip` bytes of what starts at out[from]: the rest waits behind them as views. */
  private blockedFrom(out: Buffer[], from: number, skip: number): void {
    this.socketBlocked = true;
    for (let i = from; i < out.length; i++) {
      const b = out[i]!;
      if (skip >= b.length) {
        skip -= b.length;
        continue;
      }
      this.socket.write(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
  }

  sendHeaders(s: H2Stream, headers: Record<string, string | number>, endStream: boolean): void {
    const flags = endStream ? Flag.END_STREAM : 0;
    const block = encodeHeaders(headers);
    const max = this.peerMaxFrame;
    if (block.length <= max) {
      this.queue(frameHeader(block.length, Type.HEADERS, flags | Flag.END_HEADERS, s.id));
      this.queue(block);
      return;
    }
    for (let at = 0; at < block.length; at += max) {
      const part = block.subarray(at, Math.min(at + max, block.length));
      const last = at + max >= block.length;
      const type = at === 0 ? Type.HEADERS : Type.CONTINUATION;
      this.queue(frameHeader(part.length, type, (at === 0 ? flags : 0) | (last ? Flag.END_HEADERS : 0), s.id));
      this.queue(part);
    }
  }

  sendable(): number {
    return this.socketBlocked || this.dead ? 0 : this.sendWindow;
  }

  wake(s: H2Stream): void {
    this.sendQueue.add(s);
    this.pump();
  }

  private wakeAll(): void {
    for (const s of this.streams.values()) if (s.pendingBytes || s.ending) this.sendQueue.add(s);
    this.pump();
  }

  /** Sends what the windows allow, stream by stream in the order they asked. */
  private pump(): void {
    // A stream's 'drain' or 'wantTrailers' may write again from inside the loop: run it once more then.
    if (this.pumping) return void (this.pumpAgain = true);
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
      if (this.moved) {
        this.moved = false;
        this.progressAt = performance.now();
      }
    }
  }

  private pumpOnce(): void {
    for (const s of this.sendQueue) {
      if (this.socketBlocked || this.dead) return;
      while (s.pendingBytes > 0 && s.sendWindow > 0 && this.sendWindow > 0 && !this.socketBlocked) {
        const n = Math.min(s.pendingBytes, s.sendWindow, this.sendWindow, this.peerMaxFrame);
        this.queue(frameHeader(n, Type.DATA, 0, s.id));
        this.floods.earn(FLOOD_PER_DATA_FRAME);
        let left = n;
        while (left > 0) {
          const head = s.pending[0]!;
          const avail = head.length - s.offset;
          if (avail <= left) {
            this.out.push(s.offset === 0 ? head : head.subarray(s.offset));
            s.pending.shift();
            s.offset = 0;
            left -= avail;
          } else {
            this.out.push(head.subarray(s.offset, s.offset + left));
            s.offset += left;
            left = 0;
          }
        }
        s.pendingBytes -= n;
        s.sendWindow -= n;
        this.sendWindow -= n;
        this.outBytes += n;
        this.unsent -= n;
        this.moved = true;
        // What the socket has not taken is held until it drains: written as it grows, so a client
        // with wide windows that does not read stops the pump after a scratch buffer's worth, and
        // the rest stays in its stream (whose writes then answer false), not all of it here.
        if (this.outBytes >= SCRATCH) this.flush();
      }
      if (s.pendingBytes === 0) {
        this.sendQueue.delete(s);
        s.sent();
      } else if (this.socketBlocked || this.sendWindow <= 0) return;
      // Blocked by its own window: its WINDOW_UPDATE (or a larger initial window) queues it again,
      // so the connection's WINDOW_UPDATEs do not walk streams that cannot send.
      else this.sendQueue.delete(s);
    }
  }

  /** The end of a response sent without trailers: an empty DATA frame with END_STREAM. */
  endData(s: H2Stream): void {
    this.queue(frameHeader(0, Type.DATA, Flag.END_STREAM, s.id));
  }

  reset(s: H2Stream, code: number): void {
    if (s.closed) return;
    this.control(wordsFrame(Type.RST_STREAM, 0, s.id, [code]));
    s.resetSent = true;
    s.destroy();
  }

  private resetId(id: number, code: number): void {
    this.control(wordsFrame(Type.RST_STREAM, 0, id, [code]));
    this.rememberClosed(-id);
  }

  /** A stream error on a stream open or not. */
  private resetStream(id: number, code: number): void {
    const s = this.streams.get(id);
    if (s) this.reset(s, code);
    else this.resetId(id, code);
  }

  closed(s: H2Stream): void {
    this.streams.delete(s.id);
    this.sendQueue.delete(s);
    // Answered to its end: a call, not an attack, so it makes room for a cancelled one.
    if (s.localClosed && !s.resetSent) this.prematureResets.earn(1);
    if (s.resetSent) this.rememberClosed(-s.id);
    else if (s.remoteClosed) this.rememberClosed(s.id);
    if (this.goingAway && this.streams.size === 0) this.end();
  }

  // ---- the connection's end

  /** GOAWAY: calls in flight finish, no new ones start; the socket ends after the last. */
  drain(): void {
    if (this.goingAway || this.dead) return;
    this.goingAway = true;
    this.queue(wordsFrame(Type.GOAWAY, 0, 0, [this.lastStreamId, H2Error.NO_ERROR]));
    if (this.streams.size === 0) this.end();
  }

  private end(): void {
    this.flush();
    this.socket.end();
  }

  /** A connection error: GOAWAY with its code, then the socket ends. */
  private fail(code: number, message: string): void {
    if (this.dead) return;
    this.goingAway = true;
    this.queue(wordsFrame(Type.GOAWAY, 0, 0, [this.lastStreamId, code], Buffer.from(message.slice(0, 200), "latin1")));
    this.flush();
    this.dead = true;
    // What an abuser sends after its GOAWAY is left unread (costing us nothing, and its sends
    // stall); any other client's is read and dropped until the close, so a reset cannot take our
    // GOAWAY from it (wire.ts). A socket paused for its turn is read again for that.
    if (code === H2Error.ENHANCE_YOUR_CALM) this.socket.pause?.();
    else this.socket.resume?.();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref?.();
    this.gone();
  }

  destroy(): void {
    this.socket?.destroy();
    this.gone();
  }

  /** The wire closed. */
  gone(): void {
    this.dead = true;
    this.carry = [];
    this.unread = [];
    this.unreadBytes = 0;
    this.unstarted = [];
    this.block = null;
    for (const s of [...this.streams.values()]) s.destroy();
    this.pingAcked();
    this.onClose?.();
    this.onClose = null;
  }
}
