// The database URL grammar shared by config validation and openDatabase (db/): PostgreSQL servers by their usual
// URLs, PGlite by `memory://` (nothing kept) or a `file://` URL naming its data directory. It lives with the
// configuration so that config/ needs nothing from db/.
import { fileURLToPath } from "node:url";

export type DatabaseKind = "pglite" | "postgres";

export const MEMORY_URL = "memory://";

export function databaseUrlKind(url: string): DatabaseKind | null {
  if (url === MEMORY_URL) return "pglite";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === "postgres:" || parsed.protocol === "postgresql:") return "postgres";
  if (parsed.protocol === "file:" && parsed.pathname.length > 1) return "pglite";
  return null;
}

/** What PGlite's constructor takes for a PGlite URL: `memory://`, or a directory path. */
export function pgliteDataDir(url: string): string {
  return url === MEMORY_URL ? MEMORY_URL : fileURLToPath(url);
}

/** The URL with its password masked, for logs and error messages. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  // libpq also takes the password as a query parameter.
  const inQuery = parsed.searchParams.has("password");
  if (parsed.password === "" && !inQuery) return url;
  if (parsed.password !== "") parsed.password = "***";
  if (inQuery) parsed.searchParams.set("password", "***");
  return parsed.toString();
}
