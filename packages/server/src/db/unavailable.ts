// Whether an error means "the database cannot answer right now" (down, restarting, frozen, out of connections,
// over its statement time) rather than "this query is wrong". The API answers the first kind with 503 and
// Retry-After: nothing happened, the client may simply retry. Errors arrive wrapped (Drizzle's DrizzleQueryError
// carries the driver's error as `cause`), so the whole cause chain is examined.

/** SQLSTATEs of an unavailable server: connection exceptions (08…), shutdown/startup, statement timeout, limits. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|57014|53300|53400)$/;

/**
 * object_not_in_prerequisite_state: most of its uses are a statement's fault (a sequence's currval before
 * nextval, …), but raised while a connection starts up it is the database closed to connections
 * (`ALTER DATABASE … ALLOW_CONNECTIONS false`, e.g. during maintenance). Told apart by the server routine that
 * refused, which PostgreSQL reports with every error whatever the message's language.
 */
function isConnectionRefusal(code: string, routine: unknown): boolean {
  return code === "55000" && routine === "CheckMyDatabase";
}

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

/**
 * The read replica does not have the schema this code reads yet: it has not replayed the latest migrations (a
 * table, column or function is missing there). A replica that is behind is a normal state that passes, so it
 * reads as unavailable, not as a fault. Raised only for errors of the replica's pool (postgres.ts): the same
 * SQLSTATE on the writer, which is migrated before anything runs, is a fault.
 */
export class ReplicaBehindError extends Error {
  constructor(cause: unknown) {
    super("the read replica does not have the current schema yet (migrations not replayed)", { cause });
    this.name = "ReplicaBehindError";
  }
}

/** undefined_table, undefined_column, undefined_function (pg_trgm's operators before its migration). */
const SCHEMA_BEHIND_SQLSTATE = new Set(["42P01", "42703", "42883"]);

/**
 * A hot standby cancelled the statement (or ended its connection) because replaying the writer's changes needed
 * what the statement held — a lock, or rows its snapshot still saw that the writer had vacuumed away: a recovery
 * conflict. Nothing is wrong with the query and a retry normally succeeds. Raised only for the replica's pool:
 * read-only statements on a standby meet these SQLSTATEs only this way.
 */
export class ReplicaConflictError extends Error {
  constructor(cause: unknown) {
    super("the read replica cancelled the statement to replay the writer's changes (recovery conflict)", {
      cause,
    });
    this.name = "ReplicaConflictError";
  }
}

/** serialization_failure (snapshot, lock, tablespace, buffer-pin conflicts), deadlock_detected (buffer-pin deadlock). */
const RECOVERY_CONFLICT_SQLSTATE = new Set(["40001", "40P01"]);

/**
 * The replica's error as ReplicaBehindError when it says the schema is behind, as ReplicaConflictError when it
 * gave way to replay, else unchanged.
 */
export function replicaError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error;
  if (SCHEMA_BEHIND_SQLSTATE.has(code)) return new ReplicaBehindError(error);
  if (RECOVERY_CONFLICT_SQLSTATE.has(code)) return new ReplicaConflictError(error);
  return error;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 8; depth++) {
    if (e instanceof ReplicaBehindError || e instanceof ReplicaConflictError) return true;
    const { code, message, routine } = e as { code?: unknown; message?: unknown; routine?: unknown };
    // An HTTP call (undici's fetch, e.g. to the RPC) failing on the same socket errors is not the database.
    if (message === "fetch failed") return false;
    if (
      typeof code === "string" &&
      (UNAVAILABLE_SQLSTATE.test(code) ||
        UNAVAILABLE_NODE_CODES.has(code) ||
        isConnectionRefusal(code, routine))
    ) {
      return true;
    }
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
