import { databaseUrlKind, redactUrl } from "../config/database-url.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";
import type { Database } from "./types.ts";

export interface OpenDatabaseOptions {
  /** `postgres://…`, `memory://`, or `file://…` (a PGlite directory). */
  readonly url: string;
  /** A PostgreSQL read replica; defaults to `url`. Ignored for PGlite, which has one connection. */
  readonly readUrl?: string;
  /** Errors on background connections (idle pool clients, the LISTEN connection). Default: ignored. */
  readonly onError?: (error: Error) => void;
  /** PostgreSQL: longest a pooled statement or connection attempt may take. Default: unbounded (tools, tests). */
  readonly statementTimeoutMs?: number;
  /** PostgreSQL: most connections of each pool (writer, replica); default 10 (DATABASE_POOL_SIZE). */
  readonly poolSize?: number;
}

/** Opens the database without changing it; call `migrate()` before first use. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  switch (databaseUrlKind(options.url)) {
    case "pglite":
      return openPglite(options.url);
    case "postgres":
      return openPostgres({
        url: options.url,
        ...(options.readUrl === undefined ? {} : { readUrl: options.readUrl }),
        ...(options.statementTimeoutMs === undefined
          ? {}
          : { statementTimeoutMs: options.statementTimeoutMs }),
        ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
        onError: options.onError ?? (() => {}),
      });
    default:
      throw new Error(`unsupported database URL ${redactUrl(options.url)}`);
  }
}
