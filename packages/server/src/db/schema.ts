// The database schema drizzle-kit reads. After changing it, run `npm run db:generate -w @namereg/server` and
// commit the SQL it writes to src/db/migrations. The domain tables live in tables.ts.
import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

export * from "./tables.ts";

/** Small service facts that are not chain state: schema notes, one-off markers, operator settings. */
export const meta = pgTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
