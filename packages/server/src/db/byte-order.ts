// An ORDER BY for labels that is the same on every database, for the API's listings (discovery, directory).
import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * Labels in byte order (`-` < digits < letters), whatever the database's collation, so PGlite and PostgreSQL list
 * alike; it is the order of the text_pattern_ops index on names.label.
 */
export const byteOrder = (column: AnyPgColumn): SQL => sql`${column} using ~<~`;
