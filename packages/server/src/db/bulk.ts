// Bulk writes as one JSON parameter expanded by `json_to_recordset`, and key lookups as one array parameter
// (`col = any($1)`). Drizzle's builder binds every value as its own parameter, and node-postgres escapes array
// parameters element by element in JavaScript; either costs more than PostgreSQL spends storing 10,000 rows.
// A single JSON document is serialised natively by V8 and parsed natively by PostgreSQL (and PGlite). Drizzle's
// table metadata still supplies names and types. Written by hand because drizzle has no set-based insert.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./types.ts";

const CHUNK = 20_000;

/** The SQL type a column's values are read as. */
function columnType(column: PgColumn): string {
  const t = column.getSQLType();
  if (t === "serial") return "integer";
  if (t === "bigserial") return "bigint";
  if (t.startsWith("timestamp")) return "timestamptz";
  // A collated column (tables/columns.ts byteKey): parameters are plain text, the column's collation applies.
  return t.replace(/ COLLATE .*$/, "");
}

const arrayType = (column: PgColumn): string => `${columnType(column)}[]`;

/** JSON-safe value: bigints as decimal strings (PostgreSQL parses them exactly), dates as ISO text. */
function toJson(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  return value ?? null;
}

function toDriver(column: PgColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const t = column.getSQLType();
  if (t === "jsonb" || t === "json") return JSON.stringify(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}

export interface BulkWriteOptions {
  /** Conflict target columns; omitted: a plain insert. */
  conflict?: PgColumn[];
  /** On conflict: update every other written column (`update`) or keep the existing row (`nothing`). */
  onConflict?: "update" | "nothing";
}

/**
 * Inserts `rows` (objects keyed like the table's TypeScript columns). Columns absent from the first row are
 * left to their defaults; the rows of one call must all define the same columns.
 */
export async function bulkWrite(
  db: Db,
  table: PgTable,
  rows: readonly object[],
  opts: BulkWriteOptions = {},
): Promise<void> {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (first === undefined) return;
  const config = getTableConfig(table);
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
    ([key]) => first[key] !== undefined,
  );
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK) as Record<string, unknown>[];
    const names = sql.raw(columns.map(([, col]) => `"${col.name}"`).join(", "));
    const recordType = sql.raw(columns.map(([, col]) => `"${col.name}" ${columnType(col)}`).join(", "));
    const json = JSON.stringify(
      chunk.map((r) => {
        const o: Record<string, unknown> = {};
        for (const [key, col] of columns) o[col.name] = toJson(r[key]);
        return o;
      }),
    );
    let conflict: SQL = sql``;
    if (opts.conflict !== undefined) {
      const target = sql.raw(opts.conflict.map((c) => `"${c.name}"`).join(", "));
      const targetNames = new Set(opts.conflict.map((c) => c.name));
      const sets = columns
        .filter(([, col]) => !targetNames.has(col.name))
        .map(([, col]) => `"${col.name}" = excluded."${col.name}"`);
      conflict =
        opts.onConflict === "update" && sets.length > 0
          ? sql` on conflict (${target}) do update set ${sql.raw(sets.join(", "))}`
          : sql` on conflict (${target}) do nothing`;
    }
    await db.execute(
      sql`insert into ${sql.raw(`"${config.name}"`)} (${names}) select ${names} from json_to_recordset(${sql.param(json)}::json) as t(${recordType})${conflict}`,
    );
  }
}

/** `column = any($1)` with the keys bound as one array. */
export function anyOf(column: PgColumn, keys: readonly unknown[]): SQL {
  return sql`${column} = any(${sql.param(keys.map((k) => toDriver(column, k)))}::${sql.raw(arrayType(column))})`;
}
