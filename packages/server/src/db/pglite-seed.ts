// A new embedded database starts from a seed: the data directory PGlite's initdb makes, with every migration
// applied, dumped once and kept in the user's cache directory. initdb and the migrations cost seconds of CPU on every
// new database (`namereg dev` starts clean on every run; each in-memory database is new), loading the seed a
// fraction of that (docs/operations.md, "The embedded database's seed"). The seed's name carries PGlite's version
// and a hash of the migrations, so an upgrade or a new migration makes a new one. The file ends with the SHA-256 of
// the dump, so a corrupt or truncated seed is rebuilt rather than handed to PGlite (whose loader can fail on one
// outside any promise a caller could catch); a cache directory or file this user does not own alone is not used.
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
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
 * XDG_CACHE_HOME is ignored); null without an absolute home directory either (then no seed is kept).
 */
export function seedCacheDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string | null {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "namereg");
  return isAbsolute(home) ? join(home, ".cache", "namereg") : null;
}

const PGLITE_VERSION: string = (() => {
  // The package's exports do not list its package.json: read it beside the resolved entry (dist/index.js).
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = createRequire(entry)("../package.json") as { version: string };
  return manifest.version;
})();

// The migrations a process ships do not change while it runs: their seed's name is worked out once, not on every
// new database (a test worker opens dozens).
let shippedSeedName: Promise<string> | undefined;

/** The seed file's name: PGlite's version and a hash of every file of the migrations folder (SQL and journal). */
export function seedFileName(migrationsFolder = MIGRATIONS_FOLDER): Promise<string> {
  if (migrationsFolder !== MIGRATIONS_FOLDER) return nameFor(migrationsFolder);
  shippedSeedName ??= nameFor(MIGRATIONS_FOLDER);
  return shippedSeedName;
}

async function nameFor(migrationsFolder: string): Promise<string> {
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
// database reads the file again rather than this process holding 27 MB for its lifetime. On globalThis, since a test
// runner may load this module more than once in one process.
const PENDING = Symbol.for("namereg.pgliteSeedsPending");
const pending = (): Map<string, Promise<Blob>> => {
  const holder = globalThis as { [PENDING]?: Map<string, Promise<Blob>> };
  holder[PENDING] ??= new Map();
  return holder[PENDING];
};

const DIGEST_BYTES = 32;
const digest = (bytes: Uint8Array): Buffer => createHash("sha256").update(bytes).digest();
const ownedAlone = (stats: { uid: number; mode: number }): boolean =>
  (process.getuid === undefined || stats.uid === process.getuid()) && (stats.mode & 0o022) === 0;

/**
 * The seed for the current migrations: read from the cache, else built and written there; null when there is no
 * cache this process can trust and write (see `usableCacheDir`): then a new database is made the slow way, which
 * costs less than building a seed for it alone.
 */
export async function pgliteSeed(cacheDir = seedCacheDir()): Promise<Blob | null> {
  if (cacheDir === null || !(await usableCacheDir(cacheDir))) return null;
  const path = join(cacheDir, await seedFileName());
  const inFlight = pending().get(path);
  if (inFlight !== undefined) return inFlight;
  const kept = await readSeed(path);
  if (kept !== null) return kept;
  // Not there yet, or not whole: build it, once for every database of this process that asks meanwhile.
  const build = buildSeed().then(async (seed) => {
    await keep(path, seed);
    return seed;
  });
  pending().set(path, build);
  try {
    return await build;
  } finally {
    pending().delete(path);
  }
}

/**
 * The cache directory is used when it is (or could be made) a directory of this user's that no one else may write:
 * a seed planted by another user would otherwise become every new database.
 */
async function usableCacheDir(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const stats = await lstat(dir);
    return stats.isDirectory() && ownedAlone(stats);
  } catch {
    return false;
  }
}

/** A kept seed, or null when there is none whole: missing, not this user's own file, or its digest not matching. */
export async function readSeed(path: string): Promise<Blob | null> {
  let file: FileHandle | undefined;
  try {
    file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stats = await file.stat();
    if (!stats.isFile() || !ownedAlone(stats) || stats.size <= DIGEST_BYTES) return null;
    const bytes = await file.readFile();
    const dump = bytes.subarray(0, bytes.length - DIGEST_BYTES);
    return digest(dump).equals(bytes.subarray(bytes.length - DIGEST_BYTES)) ? new Blob([dump]) : null;
  } catch {
    return null;
  } finally {
    await file?.close();
  }
}

/** Forgets a seed that would not load so the next start builds it again. */
export async function dropSeed(cacheDir = seedCacheDir()): Promise<void> {
  if (cacheDir !== null) await rm(join(cacheDir, await seedFileName()), { force: true });
}

/**
 * Writes the seed and its digest whole or not at all (a temporary file renamed into place); a failure only costs the
 * next start the build.
 */
async function keep(path: string, seed: Blob): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const dump = new Uint8Array(await seed.arrayBuffer());
    await writeFile(temporary, Buffer.concat([dump, digest(dump)]), { mode: 0o600 });
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true }).catch(() => {});
  }
}
