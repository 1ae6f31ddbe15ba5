// Reliability run at full size: `namereg index` processes against a bulk devnet and PostgreSQL, under the faults
// the integrity probe used, printing what happened. The short seeded variants are the process tests in
// packages/server/src/runtime/indexer-process.integration.test.ts.
//   node bench/reliability/run.ts [events=200000] [only=lock|restart|sigterm]
// Scenarios: (1) the writer's lock backend is terminated mid-back-fill (a standby takes over; tables must equal an
// uninterrupted run's); (2) `pg_ctl restart -m fast` of a private cluster mid-back-fill with writer and standby;
// (3) SIGTERM mid-back-fill (time to exit, events committed after the signal).
import { type ChildProcess, spawn } from "node:child_process";
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { contractEnv } from "@namereg/server";
import {
  createTestDatabase,
  indexerFor,
  runUntilIdle,
  startPrivatePostgres,
  type TestDatabase,
} from "@namereg/server/testing";
import pg from "pg";

const total = Number(process.argv[2] ?? 200_000);
const only = process.argv[3];
const wanted = (name: string) => only === undefined || only === name;
const CLI = new URL(import.meta.resolve("@namereg/server/cli")).pathname;

interface Child {
  child: ChildProcess;
  log: () => string;
  exited: Promise<number | null>;
}

function indexer(devnet: NamingDevnet, url: string): Child {
  const child = spawn(process.execPath, [CLI, "index"], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: url,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
      LOG_LEVEL: "info",
      SESSION_SECRET: "x".repeat(40),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, log: () => out, exited };
}

async function count(url: string, table = "events"): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  try {
    await client.connect();
    return Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n ?? 0);
  } catch {
    return -1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(check: () => Promise<boolean>, what: string, ms = 600_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const TABLES = ["events", "name_history", "names", "namespaces", "resolver_records", "subnames"];

async function checksum(url: string, table: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const cols = (
      await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_name = $1 and column_name not in ('id', 'ingested_at', 'updated_at') order by column_name",
        [table],
      )
    ).rows.map((c) => pg.escapeIdentifier(c.column_name));
    const row = `concat_ws('|', ${cols.join(", ")})`;
    const value = table === "events" ? `id || '|' || ${row}` : row;
    const r = await client.query<{ n: string; sum: string }>(
      `select count(*) as n, md5(coalesce(string_agg(${value}, ',' order by ${value}), '')) as sum from ${table}`,
    );
    return `${r.rows[0]?.n}:${r.rows[0]?.sum}`;
  } finally {
    await client.end();
  }
}

const devnet = await startNamingDevnet({
  scenario: "bulk",
  closeIntervalMs: 0,
  bulk: { namespaces: 4, events: total, eventsPerLedger: 2_000, holders: 200 },
});
const events = devnet.bulk?.events ?? total;
const cleanup: (() => Promise<unknown>)[] = [async () => devnet.stop()];
try {
  console.log(`bulk devnet: ${events} events`);

  // Reference: an uninterrupted run.
  const reference: TestDatabase = await createTestDatabase("postgres");
  cleanup.push(() => reference.close());
  let t = performance.now();
  const ref = indexerFor(devnet, reference.db, { concurrency: 2 });
  await ref.init();
  await runUntilIdle(ref, 10_000);
  console.log(`uninterrupted run: ${(performance.now() - t).toFixed(0)} ms`);

  // 1. Lock backend terminated mid-back-fill.
  if (wanted("lock")) {
    const db = await createTestDatabase("postgres");
    cleanup.push(() => db.close());
    const a = indexer(devnet, db.url);
    await until(async () => a.log().includes("indexer active"), "A active");
    const b = indexer(devnet, db.url);
    await until(async () => b.log().includes("waiting as a standby"), "B standby");
    await until(async () => (await count(db.url)) >= events / 4, "a quarter of the back-fill");
    const atKill = await count(db.url);
    await db.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())",
    );
    t = performance.now();
    await until(async () => b.log().includes("indexer active"), "B active");
    const takeover = performance.now() - t;
    await until(async () => (await count(db.url)) >= events, "the back-fill");
    const fenced = (a.log().match(/another indexer took over as writer/g) ?? []).length;
    const dupes = await db.query<{ n: string }>(
      "select count(*) - count(distinct (event_id, node)) as n from name_history",
    );
    let equal = 0;
    for (const table of TABLES)
      if ((await checksum(db.url, table)) === (await checksum(reference.url, table))) equal++;
    for (const c of [a, b]) c.child.kill("SIGTERM");
    const codes = await Promise.all([a.exited, b.exited]);
    console.log(
      `lock loss: killed at ${atKill} events, standby active after ${takeover.toFixed(0)} ms, deposed writer fenced ${fenced}×, duplicate history rows ${dupes[0]?.n}, tables equal to the uninterrupted run ${equal}/${TABLES.length}, exit codes ${codes.join(",")}`,
    );
  }

  // 2. Database restart mid-back-fill.
  if (wanted("restart")) {
    const cluster = await startPrivatePostgres();
    cleanup.push(() => cluster.stop());
    const a = indexer(devnet, cluster.url);
    await until(async () => a.log().includes("indexer active"), "A active");
    const b = indexer(devnet, cluster.url);
    await until(async () => b.log().includes("waiting as a standby"), "B standby");
    await until(async () => (await count(cluster.url)) >= events / 4, "a quarter of the back-fill");
    t = performance.now();
    await cluster.restart();
    const restartMs = performance.now() - t;
    const after = await count(cluster.url);
    t = performance.now();
    await until(async () => (await count(cluster.url)) > after, "indexing to resume");
    const resumed = performance.now() - t;
    await until(async () => (await count(cluster.url)) >= events, "the back-fill");
    const alive = [a, b].filter((c) => c.child.exitCode === null).length;
    for (const c of [a, b])
      if (c.child.exitCode !== null) console.log(c.log().split("\n").slice(-40).join("\n"));
    for (const c of [a, b]) c.child.kill("SIGTERM");
    const codes = await Promise.all([a.exited, b.exited]);
    console.log(
      `database restart: restart took ${restartMs.toFixed(0)} ms, indexing resumed ${resumed.toFixed(0)} ms later, ${await count(cluster.url)}/${events} events, processes alive ${alive}/2, exit codes ${codes.join(",")}`,
    );
  }

  // 3. SIGTERM mid-back-fill.
  if (wanted("sigterm")) {
    const db = await createTestDatabase("postgres");
    cleanup.push(() => db.close());
    const a = indexer(devnet, db.url);
    await until(async () => (await count(db.url)) >= events / 4, "a quarter of the back-fill");
    const atTerm = await count(db.url);
    t = performance.now();
    a.child.kill("SIGTERM");
    const code = await a.exited;
    const exitMs = performance.now() - t;
    const extra = (await count(db.url)) - atTerm;
    const publishErrors = (a.log().match(/could not publish/g) ?? []).length;
    console.log(
      `SIGTERM: exit ${code} after ${exitMs.toFixed(0)} ms, ${extra} events committed after the signal, publish errors ${publishErrors}`,
    );
  }
} finally {
  for (const c of cleanup.reverse()) await c().catch(() => undefined);
}
