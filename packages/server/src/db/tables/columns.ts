// Column helpers shared by the table modules: chain and ingestion times are timestamptz, u64 amounts are bigint.
import { bigint, customType, timestamp } from "drizzle-orm/pg-core";

export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const u64 = (name: string) => bigint(name, { mode: "bigint" });

/**
 * A key of ASCII text — a hex node or hash, an event id (fixed-width digits), a contract or account address, a
 * namespace label, a change type — only ever compared for equality, as a range of fixed-width ids or as a
 * tie-break: in the "C" collation its btree compares bytes instead of calling the locale's strcoll (the database's
 * default collation may be any, and even C.UTF-8 is not PostgreSQL's byte fast path), which every archived event
 * and issued name pays in its index inserts (docs/operations.md "Indexes of the names tables"). Byte order is also
 * the order the service states everywhere else (db/byte-order.ts). Drizzle has no collation option, hence the
 * custom type; db/bulk.ts reads values of it as plain text.
 */
export const byteKey = customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});
