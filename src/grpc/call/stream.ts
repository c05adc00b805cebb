/**
 * What a gRPC call needs of one HTTP/2 stream, the call layer's own contract: our HTTP/2's
 * H2Stream (h2/stream.ts) and node:http2's ServerHttp2Stream (lean/server.ts) are both one, so
 * neither server casts its stream to the other's type.
 */

/** A request's header fields as either HTTP/2 hands them over (pseudo-headers included). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Response headers and trailers: names lower-case, values written as they are. */
export type ResponseHeaders = Record<string, string | number>;

export interface CallStream {
  /** Closed for good (both sides done, reset, or the connection gone). */
  readonly destroyed: boolean;
  readonly closed: boolean;
  /**
   * The response headers. With endStream they are the whole answer (trailers-only); with
   * waitForTrailers, ending the DATA emits 'wantTrailers' and sendTrailers closes the stream.
   */
  respond(headers: ResponseHeaders, options?: { endStream?: boolean; waitForTrailers?: boolean }): void;
  /** Queues DATA; false once enough waits unsent that the writer should wait for 'drain'. */
  write(chunk: Buffer): boolean;
  /** No more DATA after `chunk`. */
  end(chunk?: Buffer): void;
  sendTrailers(headers: ResponseHeaders): void;
  /** Bytes a write can hand over now without them waiting; a stream that cannot tell has none. */
  room?(): number;
  /** 'data': a DATA payload; 'end': the client's END_STREAM; 'close': closed for good (once). */
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end" | "close" | "drain" | "error", listener: () => void): unknown;
  once(event: "wantTrailers", listener: () => void): unknown;
}
