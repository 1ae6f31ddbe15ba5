// A new embedded database starts from a seed: the data directory PGlite's initdb makes, with every migration
// applied, dumped once and kept in the user's cache directory. initdb and the migrations cost seconds of CPU on every
// new database (`namereg dev` starts clean on every run; each in-memory database is new), loading the seed a
// fraction of that (docs/operations.md, "The embedded database's seed"). The seed's name carries PGlite's version
// and a hash of the migrations, so an upgrade or a new migration makes a new one; an unreadable or corrupt seed is
// rebuilt, and a cache directory that cannot be written only costs the time the seed would have saved.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MIGRATIONS_FOLDER } from "./shared.ts";

/** Extensions the migrations use (trigram search for `/v1/lookup`); PostgreSQL ships them in contrib. */
export const PGLITE_OPTIONS: PGliteOptions = { extensions: { pg_trgm } };

/**
 * Where seeds are kept: `$XDG_CACHE_HOME/namereg`, else `~/.cache/namereg` (the XDG base directory rules: a relative
 * XDG_CACHE_HOME is ignored).
 */
export function seedCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "namereg");
}

const PGLITE_VERSION: string = (() => {
  // The package's exports do not list its package.json: read it beside the resolved entry (dist/index.js).
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = createRequire(entry)("../package.json") as { version: string };
  return manifest.version;
})();

/** The seed file's name: PGlite's version and a hash of every file of the migrations folder (SQL and journal). */
export async function seedFileName(migrationsFolder = MIGRATIONS_FOLDER): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path, `${prefix}${entry.name}/`);
      else
        hash
          .update(`${prefix}${entry.name}\0`)
          .update(await readFile(path))
          .update("\0");
    }
  };
  await walk(migrationsFolder, "");
  return `pglite-${PGLITE_VERSION}-${hash.digest("hex").slice(0, 16)}.tar`;
}

/** Builds a seed: a new in-memory PGlite (initdb), migrated, its data directory dumped. */
export async function buildSeed(migrationsFolder = MIGRATIONS_FOLDER): Promise<Blob> {
  const client = await PGlite.create("memory://", PGLITE_OPTIONS);
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    // initdb's two template databases are two thirds of the catalog files (8 MB each) that every database loaded
    // from the seed would copy and never use: namereg runs in `postgres` and never creates a database in PGlite.
    for (const template of ["template0", "template1"]) {
      await client.exec(`update pg_database set datistemplate = false where datname = '${template}'`);
      await client.exec(`drop database ${template}`);
    }
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

// One build at a time per process and seed (a test worker may open several databases at once); once built, each
// database reads the file again rather than this process holding 40 MB for its lifetime. On globalThis, since a test
// runner may load this module more than once in one process.
const PENDING = Symbol.for("namereg.pgliteSeedsPending");
const pending = (): Map<string, Promise<Blob>> => {
  const holder = globalThis as { [PENDING]?: Map<string, Promise<Blob>> };
  holder[PENDING] ??= new Map();
  return holder[PENDING];
};

/** The seed for the current migrations: read from the cache, else built and written there. */
export async function pgliteSeed(cacheDir = seedCacheDir()): Promise<Blob> {
  const path = join(cacheDir, await seedFileName());
  const inFlight = pending().get(path);
  if (inFlight !== undefined) return inFlight;
  try {
    return new Blob([await readFile(path)]);
  } catch {
    // Not there yet (or unreadable): build it, once for every database of this process that asks meanwhile.
    const build = buildSeed().then(async (seed) => {
      await keep(cacheDir, path, seed);
      return seed;
    });
    pending().set(path, build);
    try {
      return await build;
    } finally {
      pending().delete(path);
    }
  }
}

/** Forgets a seed that would not load (corrupt, or cut short by a crash of another writer) so it is rebuilt. */
export async function dropSeed(cacheDir = seedCacheDir()): Promise<void> {
  await rm(join(cacheDir, await seedFileName()), { force: true });
}

/** Writes the seed whole or not at all (a temporary file renamed into place); a failure only costs the next start. */
async function keep(cacheDir: string, path: string, seed: Blob): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await mkdir(cacheDir, { recursive: true, mode: 0o700 });
    await writeFile(temporary, Buffer.from(await seed.arrayBuffer()), { mode: 0o600 });
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true }).catch(() => {});
  }
}
