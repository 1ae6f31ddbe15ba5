// Migration 0019 (name_trigrams) as an operator meets it: a mirror migrated up to 0018 that already holds names is
// upgraded by the service's own migrate(), and then every writer keeps the table whole. The fill must write each
// distinct trigram of a label past its first character once, and the trigger must do the same for every way names
// arrive — a plain INSERT, the indexer's COPY (db/copy.ts), an upsert — adding nothing for a name an upsert only
// updates. The rows are compared whole with what the rule gives, computed here apart from the SQL, so a missing,
// extra or duplicated row fails; /v1/lookup's walk over the table then finds the upgraded names.
// The tests run in order, each on the names of those before it: they are the steps of one upgrade.
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { LOOKUP_LIMIT, nameSubstringWalk, planLookup, searchLookup } from "../api/routes/discovery/lookup.ts";
import { copyRows } from "./copy.ts";
import { MIGRATIONS_FOLDER } from "./shared.ts";
import { names } from "./tables.ts";

const UPGRADE = "0019_name_trigrams";
const NOW_SECONDS = 1_800_000_000n;

interface Issued {
  readonly label: string;
  readonly namespace: string;
}
type Row = readonly [trigram: string, label: string, namespace: string];

/** The rule of migration 0019, apart from its SQL: distinct 3-character substrings starting past index 0. */
function trigramsOf(label: string): string[] {
  const trigrams = new Set<string>();
  for (let i = 1; i + 3 <= label.length; i++) trigrams.add(label.slice(i, i + 3));
  return [...trigrams];
}

/** Byte order (labels are [a-z0-9-]: UTF-16 order is byte order), then namespace, as the lookup orders them. */
const byName = (a: Issued, b: Issued): number =>
  a.label < b.label
    ? -1
    : a.label > b.label
      ? 1
      : a.namespace < b.namespace
        ? -1
        : a.namespace > b.namespace
          ? 1
          : 0;
const byRow = (a: Row, b: Row): number => {
  const x = a.join(" ");
  const y = b.join(" ");
  return x < y ? -1 : x > y ? 1 : 0;
};

const expectedRows = (issued: readonly Issued[]): Row[] =>
  issued
    .flatMap(({ label, namespace }) => trigramsOf(label).map((t): Row => [t, label, namespace]))
    .sort(byRow);

const nodeOf = ({ label, namespace }: Issued): string =>
  createHash("sha256").update(`${label}.${namespace}`).digest("hex");

/** A name as the indexer writes it, every NOT NULL column set; `ledger` tells the writes apart. */
const nameRow = (name: Issued, ledger: number): typeof names.$inferInsert => ({
  node: nodeOf(name),
  namespace: name.namespace,
  label: name.label,
  holder: "GHOLDER",
  address: "GHOLDER",
  generation: 1n,
  active: true,
  issuedLedger: ledger,
  txHash: "ab".repeat(32),
  updatedLedger: ledger,
});

/**
 * One INSERT statement of `rows`, spelt in SQL rather than through the current schema: before the upgrade the
 * database is at 0018, and the rows must be what a mirror of that version held.
 */
function insertStatement(rows: readonly Issued[], ledger: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const values = rows.map((name) => {
    params.push(nodeOf(name), name.namespace, name.label);
    const n = params.length;
    return `($${n - 2}, $${n - 1}, $${n}, 'GHOLDER', 'GHOLDER', 1, true, ${ledger}, '${"ab".repeat(32)}', ${ledger})`;
  });
  return {
    sql: `insert into names (node, namespace, label, holder, address, generation, active, issued_ledger, tx_hash,
                             updated_ledger)
          values ${values.join(", ")}`,
    params,
  };
}

// Repeated trigrams ("aaaaa", "banana"), a label whose first trigram comes again later ("abcabc": "abc" is held,
// from its second occurrence), labels too short to hold any past their first character, hyphens, and the same
// label in two namespaces.
const BEFORE_UPGRADE: readonly Issued[] = [
  { label: "aaaaa", namespace: "acme" },
  { label: "abcabc", namespace: "acme" },
  { label: "abcabc", namespace: "beta" },
  { label: "banana", namespace: "acme" },
  { label: "a-b-a-b", namespace: "beta" },
  { label: "abc", namespace: "acme" },
  { label: "ab", namespace: "acme" },
  { label: "x", namespace: "beta" },
];

describe(`migration ${UPGRADE} on a mirror migrated to the one before`, () => {
  let folder: string;
  let database: TestDatabase;
  let journalLength: number;
  const issued: Issued[] = [...BEFORE_UPGRADE];

  async function heldRows(): Promise<Row[]> {
    const rows = await database.query<{ trigram: string; label: string; namespace: string }>(
      "select trigram, label, namespace from name_trigrams",
    );
    return rows.map((r): Row => [r.trigram, r.label, r.namespace]).sort(byRow);
  }

  const appliedMigrations = async (): Promise<number> =>
    (await database.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations"))[0]
      ?.n ?? 0;

  beforeAll(async () => {
    // The shipped migrations up to the one before 0019, byte for byte (drizzle records each file's hash), and a
    // journal that stops there. Drizzle's migrator reads meta/_journal.json and the .sql files it names, no
    // snapshot: the snapshots are drizzle-kit's, for generating the next migration.
    const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    journalLength = journal.entries.length;
    const upgrade = journal.entries.findIndex((entry) => entry.tag === UPGRADE);
    expect(upgrade).toBeGreaterThan(0);
    const older = journal.entries.slice(0, upgrade);
    folder = await mkdtemp(join(tmpdir(), "namereg-migration-0019-"));
    await mkdir(join(folder, "meta"));
    for (const { tag } of older)
      await copyFile(join(MIGRATIONS_FOLDER, `${tag}.sql`), join(folder, `${tag}.sql`));
    await writeFile(join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: older }));

    database = await createTestDatabase("postgres", { migrate: false });
    // As postgres.ts migrates, on a connection of its own.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await migrate(drizzle({ client }), { migrationsFolder: folder });
    } finally {
      await client.end();
    }
    const { sql, params } = insertStatement(BEFORE_UPGRADE, 1);
    await database.query(sql, params);
  });
  afterAll(async () => {
    await database?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("computes the expected trigrams by the migration's rule", () => {
    // Pinned by hand, so the comparisons below do not rest on a helper that shares a mistake with the SQL.
    expect(trigramsOf("aaaaa")).toEqual(["aaa"]);
    expect(trigramsOf("abcabc")).toEqual(["bca", "cab", "abc"]);
    expect(trigramsOf("banana")).toEqual(["ana", "nan"]);
    expect(trigramsOf("a-b-a-b")).toEqual(["-b-", "b-a", "-a-", "a-b"]);
    expect(trigramsOf("abc")).toEqual([]);
    expect(trigramsOf("ab")).toEqual([]);
  });

  it("fills name_trigrams with the names already there, each trigram once", async () => {
    // The starting point is the previous version: 0019 not applied, no table yet.
    expect(await appliedMigrations()).toBe(journalLength - 1);
    const [before] = await database.query<{ t: string | null }>(
      "select to_regclass('name_trigrams')::text as t",
    );
    expect(before?.t).toBeNull();

    await database.migrate();

    expect(await appliedMigrations()).toBe(journalLength);
    const held = await heldRows();
    expect(held).toEqual(expectedRows(issued));
    // 1 + 3 + 3 + 2 + 4: the rows the hand-pinned trigrams above give, so the count cannot follow a wrong rule.
    expect(held).toHaveLength(13);
  });

  it("adds the trigrams of names a plain INSERT issues, several in one statement", async () => {
    const added: Issued[] = [
      { label: "mississippi", namespace: "acme" },
      { label: "xabcx", namespace: "beta" },
    ];
    const { sql, params } = insertStatement(added, 2);
    await database.query(sql, params);
    issued.push(...added);
    expect(await heldRows()).toEqual(expectedRows(issued));
  });

  it("adds the trigrams of names the indexer COPYs", async () => {
    // A label already held in two namespaces issued in a third, and a prefix match for the lookup below.
    const added: Issued[] = [
      { label: "cabcab", namespace: "acme" },
      { label: "bcaxy", namespace: "acme" },
      { label: "abcabc", namespace: "gamma" },
    ];
    const copied = await database.db.transaction((tx) =>
      copyRows(
        tx,
        names,
        added.map((name) => nameRow(name, 3)),
        { conflict: [names.node], onConflict: "nothing" },
      ),
    );
    // COPY itself, not the fallback insert it takes on a conflict.
    expect(copied).toBe(true);
    issued.push(...added);
    expect(await heldRows()).toEqual(expectedRows(issued));
  });

  it("adds the trigrams of a name an upsert inserts, and none for the name it updates", async () => {
    const added: Issued = { label: "obcao", namespace: "beta" };
    const updated = BEFORE_UPGRADE.find((name) => name.label === "banana") as Issued;
    // One statement inserting one name and updating another: the transition table holds only the inserted row.
    await database.db
      .insert(names)
      .values([nameRow(added, 4), nameRow(updated, 4)])
      .onConflictDoUpdate({ target: names.node, set: { updatedLedger: 4 } });
    const [row] = await database.query<{ issued_ledger: number; updated_ledger: number }>(
      "select issued_ledger, updated_ledger from names where node = $1",
      [nodeOf(updated)],
    );
    expect(row).toEqual({ issued_ledger: 1, updated_ledger: 4 });
    issued.push(added);
    expect(await heldRows()).toEqual(expectedRows(issued));
  });

  it("finds the upgraded names' substrings by walking name_trigrams", async () => {
    for (const query of ["bca", "abc", "ssi", "bca.beta"]) {
      const plan = planLookup(query);
      const term = plan.nameTerm as string;
      const inScope = issued
        .filter((name) => plan.inNamespace === null || name.namespace === plan.inNamespace)
        .sort(byName);
      const prefixed = inScope.filter((name) => name.label.startsWith(term));
      // A substring match starts past a label's first character; one at the start is a prefix match.
      const substrings = inScope.filter((name) => name.label.indexOf(term) > 0);
      expect(prefixed.length + substrings.length).toBeLessThan(LOOKUP_LIMIT);
      expect(substrings.length, query).toBeGreaterThan(0);

      const found = await searchLookup(database.replica, plan, NOW_SECONDS);
      expect(found, query).toEqual({ namespaces: [], names: [...prefixed, ...substrings] });
      // searchLookup falls back to the pg_trgm index when the walk does not fill a page, which would hide a
      // name_trigrams missing the names the fill should have written: the walk alone, unbounded, must find them.
      const walked = await nameSubstringWalk(database.replica, term, {
        inNamespace: plan.inNamespace,
        nowSeconds: NOW_SECONDS,
        limit: LOOKUP_LIMIT,
        scan: null,
      });
      expect(walked, query).toEqual(substrings);
    }
  });
});
