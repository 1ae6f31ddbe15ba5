import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdsNothing, openPglite } from "./pglite.ts";
import { pgliteSeed, readSeed, seedCacheDir, seedFileName } from "./pglite-seed.ts";
import { MIGRATIONS_FOLDER } from "./shared.ts";

describe("the embedded database's seed", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "namereg-seed-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is kept in XDG_CACHE_HOME/namereg, else ~/.cache/namereg, and nowhere without an absolute home", () => {
    expect(seedCacheDir({ XDG_CACHE_HOME: "/var/cache/u" })).toBe("/var/cache/u/namereg");
    expect(seedCacheDir({ XDG_CACHE_HOME: "" })).toBe(join(homedir(), ".cache", "namereg"));
    expect(seedCacheDir({ XDG_CACHE_HOME: "relative/cache" })).toBe(join(homedir(), ".cache", "namereg"));
    expect(seedCacheDir({}, "")).toBeNull();
    expect(seedCacheDir({}, "home/u")).toBeNull();
  });

  it("is named for PGlite's version and the migrations, and a changed migration names a new one", async () => {
    const name = await seedFileName();
    expect(name).toMatch(/^pglite-\d+\.\d+\.\d+-[0-9a-f]{16}\.tar$/);
    expect(await seedFileName()).toBe(name);
    const copy = join(dir, "migrations");
    await cp(MIGRATIONS_FOLDER, copy, { recursive: true });
    expect(await seedFileName(copy)).toBe(name);
    const [first] = (await readdir(copy)).filter((f) => f.endsWith(".sql")).sort();
    await writeFile(
      join(copy, first as string),
      `${await readFile(join(copy, first as string), "utf8")}\n-- changed\n`,
    );
    expect(await seedFileName(copy)).not.toBe(name);
  });

  it("is built once into an empty cache, read back whole, and not read when damaged or not this user's alone", async () => {
    const cache = join(dir, "cache");
    const built = await pgliteSeed(cache);
    if (built === null) throw new Error("no seed built");
    const file = join(cache, await seedFileName());
    const written = await stat(file);
    // The dump and its SHA-256.
    expect(written.size).toBe(built.size + 32);
    expect(written.mode & 0o777).toBe(0o600);
    expect((await stat(cache)).mode & 0o777).toBe(0o700);
    const read = await pgliteSeed(cache);
    expect(read?.size).toBe(built.size);
    expect((await stat(file)).mtimeMs).toBe(written.mtimeMs);
    expect((await readdir(cache)).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const bytes = await readFile(file);
    const damaged = join(dir, "damaged.tar");
    const flipped = Buffer.from(bytes);
    flipped[257] = (flipped[257] as number) ^ 1; // the first header's "ustar" magic
    await writeFile(damaged, flipped, { mode: 0o600 });
    expect(await readSeed(damaged)).toBeNull();
    await writeFile(damaged, bytes.subarray(0, bytes.length - 1000), { mode: 0o600 });
    expect(await readSeed(damaged)).toBeNull();
    await writeFile(damaged, bytes, { mode: 0o600 });
    expect((await readSeed(damaged))?.size).toBe(built.size);
    // Writable by others, or a link: not trusted.
    await chmod(damaged, 0o666);
    expect(await readSeed(damaged)).toBeNull();
    await chmod(damaged, 0o600);
    await symlink(damaged, join(dir, "link.tar"));
    expect(await readSeed(join(dir, "link.tar"))).toBeNull();
    // A cache directory others may write is not used at all (nothing built, nothing read).
    const shared = join(dir, "shared");
    await mkdir(shared, { mode: 0o777 });
    await chmod(shared, 0o777);
    expect(await pgliteSeed(shared)).toBeNull();
    expect(await readdir(shared)).toEqual([]);
  }, 60_000);

  it("starts a new database with every migration applied, in memory and in an empty data directory", async () => {
    const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    for (const url of ["memory://", pathToFileURL(join(dir, "data")).href]) {
      const database = await openPglite(url);
      try {
        const applied = await database.query<{ n: number }>(
          "select count(*)::int as n from drizzle.__drizzle_migrations",
        );
        expect(applied[0]?.n).toBe(journal.entries.length);
        const databases = await database.query<{ datname: string }>("select datname from pg_database");
        expect(databases.map((d) => d.datname)).toEqual(["postgres"]);
        await database.migrate();
        expect((await database.query<{ n: number }>("select count(*)::int as n from names"))[0]?.n).toBe(0);
      } finally {
        await database.close();
      }
    }
  }, 60_000);

  it("is loaded only into a data directory that holds nothing but the process's claim", async () => {
    const data = join(dir, "claimed");
    await mkdir(data);
    expect(await holdsNothing(data)).toBe(true);
    await writeFile(join(data, "namereg.pid"), String(process.pid));
    expect(await holdsNothing(data)).toBe(true);
    await writeFile(join(data, "backup.dump"), "precious");
    expect(await holdsNothing(data)).toBe(false);
  });
});
