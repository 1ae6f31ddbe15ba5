// The kill suite: a seeded back-fill of bulk events into PostgreSQL by `namereg index` processes, each SIGKILLed
// at a seeded random point of the back-fill and restarted, until the back-fill is done; then every table the
// indexer writes must equal (per-table md5 of ordered rows, ingestion and bookkeeping times excluded) that of an
// uninterrupted run on a fresh database. `bench/kill/run.ts` runs it at full size; the integration test next to
// it runs a short seeded variant.
import type { ChildProcess } from "node:child_process";
import { startNamingDevnet } from "@namereg/devnet";
import { contractEnv } from "@namereg/server";
import {
  createTestDatabase,
  indexerFor,
  prng,
  runUntilIdle,
  signalGroup,
  spawnInGroup,
  type TestDatabase,
} from "@namereg/server/testing";
import pg from "pg";

export interface KillSuiteOptions {
  seed: number;
  events: number;
  kills: number;
  log?: (line: string) => void;
}

export interface KillSuiteResult {
  seed: number;
  events: number;
  kills: number;
  /** Events archived when each kill landed: below `reference`, the kill came mid-back-fill. */
  archivedAtKills: number[];
  archived: number;
  reference: number;
  lost: number;
  duplicated: number;
  tables: { table: string; rows: number; equal: boolean }[];
  ok: boolean;
}

/**
 * Bookkeeping that legitimately differs between runs (positions, the writer epoch, progress times, and the
 * chain identity `namereg index` records when it first connects, which the reference's in-process run skips).
 */
const SKIPPED_TABLES = new Set([
  "streams",
  "indexer_state",
  "writer_fence",
  "chain_identity",
  "__drizzle_migrations",
]);
/** Ingestion and bookkeeping times, and a contract's stream (streams merge in run-dependent order). */
const SKIPPED_COLUMNS = new Set([
  "ingested_at",
  "updated_at",
  "discovered_at",
  "created_at",
  "recorded_at",
  "taken_at",
  "stream_id",
]);

const CLI = new URL(import.meta.resolve("@namereg/server/cli")).pathname;

export async function runKillSuite(o: KillSuiteOptions): Promise<KillSuiteResult> {
  const log = o.log ?? (() => undefined);
  const rand = prng(o.seed);
  const devnet = await startNamingDevnet({
    scenario: "bulk",
    closeIntervalMs: 0,
    bulk: { namespaces: 4, events: o.events, eventsPerLedger: 500, holders: 200 },
  });
  const cleanup: (() => Promise<unknown>)[] = [async () => devnet.stop()];
  try {
    const total = devnet.bulk?.events ?? o.events;
    const reference: TestDatabase = await createTestDatabase("postgres");
    cleanup.push(() => reference.close());
    const ref = indexerFor(devnet, reference.db, { concurrency: 2 });
    await ref.init();
    await runUntilIdle(ref, 100_000);
    log(`uninterrupted run: ${await count(reference.url)} events archived`);

    const db: TestDatabase = await createTestDatabase("postgres");
    cleanup.push(() => db.close());
    // Kill points: seeded archive sizes across the back-fill, in order.
    const points = Array.from({ length: o.kills }, () => Math.floor(rand() * total)).sort((a, b) => a - b);
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: db.url,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
      LOG_LEVEL: "warn",
    };
    let kills = 0;
    const archivedAtKills: number[] = [];
    for (const point of points) {
      const child = spawnInGroup(process.execPath, [CLI, "index"], { env, stdio: "ignore" });
      cleanup.push(async () => signalGroup(child, "SIGKILL"));
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      // Some points fall inside one batch of the previous run: those kill a process still starting up, which is
      // a kill point too (before the lock, during init, during the first batch).
      await until(
        async () => (await count(db.url)) >= point || child.exitCode !== null,
        `${point} events`,
        () => count(db.url),
      );
      if (child.exitCode !== null) throw new Error(`namereg index exited by itself (${child.exitCode})`);
      kill(child);
      await exited;
      kills++;
      archivedAtKills.push(await count(db.url));
    }
    const last = spawnInGroup(process.execPath, [CLI, "index"], { env, stdio: "ignore" });
    cleanup.push(async () => signalGroup(last, "SIGKILL"));
    const lastExit = new Promise<void>((resolve) => last.once("exit", () => resolve()));
    const done = await referenceCounts(reference.url);
    await until(
      async () => equalCounts(await referenceCounts(db.url), done),
      "the back-fill to finish",
      () => count(db.url),
    );
    last.kill("SIGTERM");
    await lastExit;

    const tables: KillSuiteResult["tables"] = [];
    for (const table of await indexerTables(reference.url)) {
      const [a, b] = [await checksum(reference.url, table), await checksum(db.url, table)];
      tables.push({ table, rows: a.rows, equal: a.rows === b.rows && a.sum === b.sum });
    }
    const lost = await missingEvents(reference.url, db.url);
    const duplicated = await duplicateHistory(db.url);
    const archived = await count(db.url);
    const referenceCount = await count(reference.url);
    return {
      seed: o.seed,
      events: total,
      kills,
      archivedAtKills,
      archived,
      reference: referenceCount,
      lost,
      duplicated,
      tables,
      ok: lost === 0 && duplicated === 0 && archived === referenceCount && tables.every((t) => t.equal),
    };
  } finally {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

function kill(child: ChildProcess): void {
  signalGroup(child, "SIGKILL");
}

/**
 * Waits for `check`, failing only when `measure` (events archived) has not moved for STALL_MS: the back-fill may
 * take as long as the machine makes it. A process killed mid-start archives nothing until it is up: the stall
 * window covers a start on a slow machine many times over.
 */
const STALL_MS = 120_000;
async function until(
  check: () => Promise<boolean>,
  what: string,
  measure: () => Promise<number>,
): Promise<void> {
  let seen = -1;
  let end = performance.now() + STALL_MS;
  for (;;) {
    if (await check()) return;
    const now = await measure();
    if (now !== seen) {
      seen = now;
      end = performance.now() + STALL_MS;
    }
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}: stuck at ${seen} events`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await f(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function count(url: string): Promise<number> {
  return withClient(url, async (c) =>
    Number((await c.query<{ n: string }>("select count(*) as n from events")).rows[0]?.n ?? 0),
  );
}

/** Archive size plus the stream positions: equal to the reference's once the back-fill is through. */
async function referenceCounts(url: string): Promise<string> {
  return withClient(url, async (c) => {
    const r = await c.query<{ n: string; h: string; p: string }>(
      "select (select count(*) from events) as n, (select count(*) from name_history) as h, (select processed_ledger from indexer_state) as p",
    );
    const row = r.rows[0];
    return `${row?.n}:${row?.h}:${row?.p}`;
  });
}

function equalCounts(a: string, b: string): boolean {
  return a.split(":").slice(0, 2).join(":") === b.split(":").slice(0, 2).join(":");
}

async function indexerTables(url: string): Promise<string[]> {
  return withClient(url, async (c) =>
    (
      await c.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
      )
    ).rows
      .map((r) => r.table_name)
      .filter((t) => !SKIPPED_TABLES.has(t)),
  );
}

async function checksum(url: string, table: string): Promise<{ rows: number; sum: string }> {
  return withClient(url, async (c) => {
    const cols = (
      await c.query<{ column_name: string; column_default: string | null }>(
        "select column_name, column_default from information_schema.columns where table_schema = 'public' and table_name = $1 order by column_name",
        [table],
      )
    ).rows
      .filter((r) => !SKIPPED_COLUMNS.has(r.column_name) && !(r.column_default ?? "").startsWith("nextval("))
      .map((r) => `${pg.escapeIdentifier(r.column_name)}::text`);
    const row = `concat_ws('|', ${cols.join(", ")})`;
    const r = await c.query<{ n: string; sum: string }>(
      `select count(*) as n, md5(coalesce(string_agg(${row}, ',' order by ${row}), '')) as sum from ${pg.escapeIdentifier(table)}`,
    );
    return { rows: Number(r.rows[0]?.n ?? 0), sum: r.rows[0]?.sum ?? "" };
  });
}

/** Reference events the killed run's archive lacks (compared by id across the two databases). */
async function missingEvents(referenceUrl: string, url: string): Promise<number> {
  const ids = await withClient(referenceUrl, async (c) =>
    (await c.query<{ id: string }>("select id from events")).rows.map((r) => r.id),
  );
  return withClient(url, async (c) => {
    const r = await c.query<{ n: string }>(
      "select count(*) as n from unnest($1::text[]) as ref(id) where not exists (select 1 from events e where e.id = ref.id)",
      [ids],
    );
    return Number(r.rows[0]?.n ?? 0);
  });
}

async function duplicateHistory(url: string): Promise<number> {
  return withClient(url, async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          "select count(*) - count(distinct (event_id, node)) as n from name_history",
        )
      ).rows[0]?.n ?? 0,
    ),
  );
}
