export { type DatabaseKind, databaseUrlKind, MEMORY_URL, redactUrl } from "../config/database-url.ts";
export { type OpenDatabaseOptions, openDatabase } from "./database.ts";
export { pgliteDatabase } from "./pglite.ts";
export { advisoryLockKey } from "./shared.ts";
export type { AdvisoryLock, Database, Db, ListenOptions, Row, Schema, Subscription } from "./types.ts";
