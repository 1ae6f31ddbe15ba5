// Column helpers shared by the table modules: chain and ingestion times are timestamptz, u64 amounts are bigint.
import { bigint, customType, timestamp } from "drizzle-orm/pg-core";

export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const u64 = (name: string) => bigint(name, { mode: "bigint" });

/**
 * A lowercase hex key (a node, a transaction hash), only ever compared for equality or ordered as a tie-break:
 * in the "C" collation its btree compares bytes instead of calling the locale's strcoll (the database's default
 * collation may be any), which every issued name's index inserts pay (docs/operations.md "Indexes of the names
 * tables"). Byte order and a UTF-8 locale's order agree on [0-9a-f]. Drizzle has no collation option, hence the
 * custom type; db/bulk.ts reads values of it as plain text.
 */
export const hexKey = customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});
