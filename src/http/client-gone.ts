/**
 * The client went away (reset, closed) before its request body was read whole. Nobody is left to
 * answer and nothing went wrong on our side: the connection is closed, nothing is logged as an
 * error or counted as internal.
 */
export class ClientGone extends Error {
  constructor(cause: unknown) {
    super(`the client closed the connection mid-request (${(cause as Error)?.message ?? String(cause)})`.slice(0, 200));
  }
}
