// Column helpers shared by the table modules: chain and ingestion times are timestamptz, u64 amounts are bigint.
import { bigint, timestamp } from "drizzle-orm/pg-core";

export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const u64 = (name: string) => bigint(name, { mode: "bigint" });
