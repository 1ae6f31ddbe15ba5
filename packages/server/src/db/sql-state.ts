// PostgreSQL's SQLSTATE of a failed statement, wherever the driver or Drizzle (which wraps the driver's error as
// `cause`) put it: the one walk the callers that react to one code share.

/** Whether `error` or an error in its cause chain carries the SQLSTATE `code` (bounded, in case a chain loops). */
export function hasSqlState(error: unknown, code: string): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 8; depth++) {
    if ((e as { code?: unknown }).code === code) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** unique_violation. */
export const UNIQUE_VIOLATION = "23505";
