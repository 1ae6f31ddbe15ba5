// Whether an error means "the database cannot answer right now" (down, restarting, frozen, out of connections,
// over its statement time) rather than "this query is wrong". The API answers the first kind with 503 and
// Retry-After: nothing happened, the client may simply retry. Errors arrive wrapped (Drizzle's DrizzleQueryError
// carries the driver's error as `cause`), so the whole cause chain is examined.

/** SQLSTATEs of an unavailable server: connection exceptions (08…), shutdown/startup, statement timeout, limits. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|57014|53300|53400)$/;

const UNAVAILABLE_NODE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// node-postgres reports these as plain Errors without a code.
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 8; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    // An HTTP call (undici's fetch, e.g. to the RPC) failing on the same socket errors is not the database.
    if (message === "fetch failed") return false;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) {
      return true;
    }
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
