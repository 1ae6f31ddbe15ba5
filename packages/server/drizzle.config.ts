// drizzle-kit reads this to write SQL migrations from src/db/schema.ts: `npm run db:generate -w @namereg/server`.
// Paths are relative to this package, where npm runs workspace scripts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.ts",
  out: "./src/db/migrations",
  strict: false,
  verbose: false,
});
