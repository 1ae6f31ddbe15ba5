// COPY for the append-only tables the indexer writes (the event archive, name history) and for the rows of a
// page that are new to a keyed table (names a back-fill issues). PostgreSQL parses COPY's text format several
// times faster than the JSON document bulk.ts sends (measured: 50,000 archive rows in ~300 ms against ~900 ms,
// of which ~600 ms was json_to_recordset parsing alone). Drizzle has no COPY and node-postgres needs
// pg-copy-streams for it; the encoding of values into COPY text is written here because it depends on our
// column types.
//
// COPY cannot say ON CONFLICT. The indexer writes only rows it has just checked are absent (events not
// archived, names its locked load did not find), under the writer fence, so a conflict means something
// unforeseen: the COPY runs in a savepoint and, on a unique violation, the rows go again through bulk.ts with
// its conflict rule, exactly as before.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { getTableColumns } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { Client } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { type BulkWriteOptions, bulkWrite } from "./bulk.ts";
import type { Db } from "./types.ts";

const LINES_PER_CHUNK = 1000;

/** The node-postgres connection a Drizzle transaction runs on; null on PGlite. */
export function pgConnection(db: Db): Client | null {
  // Drizzle keeps the transaction's pooled client as `session.client` and does not expose it otherwise.
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof Client ? client : null;
}

const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;

/** Backslash, newline, CR and tab escaped; most values have none, and testing first skips the replace. */
const escapeText = (text: string): string =>
  SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c] ?? c) : text;

type Encode = (value: unknown) => string;

/** How a column's non-null values become COPY text, decided once per column rather than per value. */
function encoderOf(column: PgColumn): Encode {
  const type = column.getSQLType();
  if (type === "jsonb" || type === "json") return (value) => escapeText(JSON.stringify(value));
  // Rows of one ledger share its close time's Date (indexer/decode.ts): formatted once per run of them.
  let lastDate: Date | null = null;
  let lastIso = "";
  return (value) => {
    if (typeof value === "string") return escapeText(value);
    if (value instanceof Date) {
      if (value !== lastDate) {
        lastDate = value;
        lastIso = value.toISOString();
      }
      return lastIso;
    }
    if (typeof value === "boolean") return value ? "t" : "f";
    return escapeText(String(value));
  };
}

function* copyLines(
  columns: [string, PgColumn][],
  rows: readonly Record<string, unknown>[],
): Generator<string> {
  const keys = columns.map(([key]) => key);
  const encoders = columns.map(([, col]) => encoderOf(col));
  const last = columns.length - 1;
  let chunk = "";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    for (let c = 0; c <= last; c++) {
      const value = row[keys[c] as string];
      chunk += value === null || value === undefined ? "\\N" : (encoders[c] as Encode)(value);
      chunk += c === last ? "\n" : "\t";
    }
    if ((i + 1) % LINES_PER_CHUNK === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/**
 * Appends `rows` with COPY on PostgreSQL (inside the caller's transaction), or otherwise on PGlite or after a
 * conflict: with bulk.ts following `onConflict`, or by calling it when it is the caller's own statement. Rows must
 * all define the same columns. Resolves true when COPY wrote them.
 */
export async function copyRows(
  db: Db,
  table: PgTable,
  rows: readonly object[],
  onConflict: BulkWriteOptions | (() => Promise<void>),
): Promise<boolean> {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (first === undefined) return false;
  const otherwise = (): Promise<void> =>
    typeof onConflict === "function" ? onConflict() : bulkWrite(db, table, rows, onConflict);
  const client = pgConnection(db);
  if (client === null) {
    await otherwise();
    return false;
  }
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
    ([key]) => first[key] !== undefined,
  );
  const names = columns.map(([, col]) => `"${col.name}"`).join(", ");
  await client.query("savepoint namereg_copy");
  try {
    await pipeline(
      Readable.from(copyLines(columns, rows as readonly Record<string, unknown>[])),
      client.query(copyFrom(`copy "${getTableConfig(table).name}" (${names}) from stdin`)),
    );
  } catch (err) {
    if ((err as { code?: unknown }).code !== "23505") throw err;
    await client.query("rollback to savepoint namereg_copy");
    await otherwise();
    return false;
  }
  await client.query("release savepoint namereg_copy");
  return true;
}
