// `namereg index` as real processes against a devnet and a real PostgreSQL database: killed mid-backfill it
// resumes with nothing lost or duplicated; two of them never write at once, and a standby takes over; a writer
// whose lock connection is killed is fenced off; both survive a database restart; SIGTERM stops within a batch;
// a writer killed right after a commit still has its change reach the API's resolve cache.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { demoKeypair, type NamingDevnet, settlingWallet, startNamingDevnet } from "@namereg/devnet";
import { nameNode, RegistrarFns } from "@namereg/protocol";
import { count } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signalGroup, spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { indexerFor, runUntilIdle } from "../../test/fixtures/demo.ts";
import { type PrivatePostgres, startPrivatePostgres } from "../../test/fixtures/private-postgres.ts";
import { BACKSTOP_MS, waitForProgress } from "../../test/fixtures/progress.ts";
import { buildApp } from "../api/app.ts";
import { ChainClient } from "../chain/chain-client.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { advisoryLockKey } from "../db/shared.ts";
import { events } from "../db/tables.ts";
import { contractEnv } from "./commands.ts";
import { INDEXER_LOCK } from "./indexer-process.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

interface IndexerChild {
  child: ChildProcess;
  output: string[];
  active: Promise<void>;
  /** When it was spawned and when it logged that it holds the writer lock (performance.now()). */
  spawnedAt: number;
  activeAt: number | null;
  exited: Promise<number | null>;
}

function spawnIndexer(devnet: NamingDevnet, databaseUrl: string): IndexerChild {
  const child = spawnInGroup(process.execPath, [CLI, "index"], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
      LOG_LEVEL: "info",
      SESSION_SECRET: "x".repeat(40),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const spawnedAt = performance.now();
  let markActive: () => void = () => {};
  const active = new Promise<void>((resolve) => {
    markActive = resolve;
  });
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (text.includes("indexer active")) {
      indexer.activeAt ??= performance.now();
      markActive();
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdout?.setEncoding("utf8");
  const indexer: IndexerChild = { child, output, active, spawnedAt, activeAt: null, exited };
  return indexer;
}

/**
 * Waits for `check`. With `measure` (rows archived…) it fails only when that stops moving for a minute, however
 * long the whole back-fill takes on this machine; without, a minute for one step (a process starting, a lock).
 */
const waitFor = (
  check: () => Promise<boolean>,
  what: string,
  measure?: () => Promise<number>,
): Promise<void> => waitForProgress(check, what, { measure });

// The back-fills take as long as the machine makes them: every wait inside is bounded by progress (waitFor).
describe("namereg index processes on PostgreSQL", { timeout: BACKSTOP_MS }, () => {
  let devnet: NamingDevnet | undefined;
  let database: TestDatabase | undefined;
  const children: ChildProcess[] = [];
  let reference: TestDatabase | undefined;
  let cluster: PrivatePostgres | undefined;
  // The back-fill of the kill, fence and restart tests: built once, only read (each test sets its own latency).
  // 20,002 events are more than the two pages of 10,000 that can be in flight at a kill, so a kill after the first
  // batch always lands mid-back-fill (asserted where it matters).
  let bulk: NamingDevnet | undefined;
  beforeAll(async () => {
    bulk = await startNamingDevnet({
      scenario: "bulk",
      closeIntervalMs: 0,
      bulk: { namespaces: 2, events: 20_002, eventsPerLedger: 500, holders: 20 },
    });
  }, 120_000);
  afterAll(async () => {
    await bulk?.stop();
  });
  const sharedBulk = (): NamingDevnet => {
    if (bulk === undefined) throw new Error("the shared bulk devnet did not start");
    bulk.setFaults({ latencyMs: 0 });
    return bulk;
  };
  afterEach(async () => {
    for (const c of children) signalGroup(c, "SIGKILL");
    children.length = 0;
    if (devnet !== bulk) await devnet?.stop();
    await database?.close();
    await reference?.close();
    await cluster?.stop();
    devnet = database = reference = cluster = undefined;
  });

  const archived = async () => Number((await database?.db.select({ n: count() }).from(events))?.[0]?.n ?? 0);

  it("resumes after SIGKILL mid-backfill with no lost and no duplicated rows", async () => {
    devnet = sharedBulk();
    database = await createTestDatabase("postgres");
    const total = (devnet.bulk?.events ?? 0) + 0;
    // Slow pages so the kill lands mid-backfill.
    devnet.setFaults({ latencyMs: 150 });
    const first = spawnIndexer(devnet, database.url);
    children.push(first.child);
    await waitFor(async () => (await archived()) > 0, "the first batch");
    first.child.kill("SIGKILL");
    await first.exited;
    const atKill = await archived();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(total);

    devnet.setFaults({ latencyMs: 0 });
    const second = spawnIndexer(devnet, database.url);
    children.push(second.child);
    await waitFor(async () => (await archived()) >= total, "the back-fill to finish", archived);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(await archived()).toBe(total);
    const [dupes] = await database.query<{ n: string }>(
      "select count(*) - count(distinct id) as n from events",
    );
    expect(Number(dupes?.n)).toBe(0);
    const [names] = await database.query<{ n: string }>("select count(*) as n from names");
    expect(Number(names?.n)).toBe(20_000);
  });

  it("lets only one of two indexers write; the standby takes over when the writer dies", async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 200 });
    database = await createTestDatabase("postgres");
    const a = spawnIndexer(devnet, database.url);
    children.push(a.child);
    await a.active;
    const b = spawnIndexer(devnet, database.url);
    children.push(b.child);
    await waitFor(async () => b.output.join("").includes("waiting as a standby"), "the standby");
    await waitFor(async () => (await archived()) >= 32, "the demo to be indexed", archived);
    expect(b.output.join("")).not.toContain("indexer active");

    a.child.kill("SIGKILL");
    await a.exited;
    const tookOver = performance.now();
    await b.active;
    // Measured against this machine: taking over (the lock, then the writer's start) is no slower than a cold
    // start of a writer was (a process launched, connected, locked and started), however fast the machine is.
    const coldStart = (a.activeAt ?? Number.NaN) - a.spawnedAt;
    expect(performance.now() - tookOver).toBeLessThan(coldStart);
    // The new writer keeps following the head: a new event arrives and is archived.
    const before = await archived();
    devnet.chain.injectEvents([
      {
        contractId: devnet.contracts.registry,
        topics: ["AAAADwAAAAdub3RfbmV3AA=="],
        value: "AAAAAQ==",
      },
    ]);
    await waitFor(async () => (await archived()) > before, "the standby to archive new events");
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
  });

  it("fences a writer whose lock connection is killed mid-back-fill: same tables as an uninterrupted run", async () => {
    devnet = sharedBulk();
    database = await createTestDatabase("postgres");
    const total = devnet.bulk?.events ?? 0;
    // The uninterrupted run to compare with, in this process while the processes below wait on the slowed RPC.
    const chain = devnet;
    const uninterrupted = (async () => {
      reference = await createTestDatabase("postgres");
      const run = indexerFor(chain, reference.db);
      await run.init();
      await runUntilIdle(run);
      return reference;
    })();
    // Awaited below; a test failing before then must not also report it as unhandled.
    uninterrupted.catch(() => undefined);
    devnet.setFaults({ latencyMs: 100 });
    const a = spawnIndexer(devnet, database.url);
    children.push(a.child);
    await a.active;
    const b = spawnIndexer(devnet, database.url);
    children.push(b.child);
    await waitFor(async () => b.output.join("").includes("waiting as a standby"), "the standby");
    await waitFor(async () => (await archived()) > 0, "the first batch");
    // What the probe did: kill the backend holding the writer lock, not the process. That lock alone: the batch
    // in flight holds the change outbox's transaction lock too (db/outbox.ts), a backend this test must not end.
    // A bigint advisory key shows in pg_locks as its high (classid) and low (objid) halves.
    const key = advisoryLockKey(INDEXER_LOCK).toString();
    const killed = await database.query<{ ok: boolean }>(
      `select pg_terminate_backend(pid) as ok from pg_locks where locktype = 'advisory' and granted and objsubid = 1 and ((classid::bigint << 32) | objid::bigint) = ${key}::bigint and database = (select oid from pg_database where datname = current_database())`,
    );
    expect(killed).toEqual([{ ok: true }]);
    await b.active;
    devnet.setFaults({ latencyMs: 0 });
    await waitFor(async () => (await archived()) >= total, "the back-fill to finish", archived);
    // The old writer did not exit: it stood by again (the lock is the successor's).
    await waitFor(
      async () => a.output.join("").includes("waiting as a standby"),
      "the deposed writer to stand by",
    );
    expect(a.child.exitCode).toBeNull();

    const expected = await uninterrupted;
    for (const table of CHECKSUMMED) {
      expect({ table, sum: await checksum(database, table) }).toEqual({
        table,
        sum: await checksum(expected, table),
      });
    }
    for (const c of [a, b]) c.child.kill("SIGTERM");
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  });

  it("keeps indexing across a database restart mid-back-fill, writer and standby alike, and exits 0 on SIGTERM", async () => {
    cluster = await startPrivatePostgres();
    devnet = sharedBulk();
    const total = devnet.bulk?.events ?? 0;
    const url = cluster.url;
    const countIn = async () => {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ n: string }>("select count(*) as n from events");
        return Number(rows[0]?.n ?? 0);
      } catch {
        return -1;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    devnet.setFaults({ latencyMs: 20 });
    const a = spawnIndexer(devnet, url);
    children.push(a.child);
    await a.active;
    const b = spawnIndexer(devnet, url);
    children.push(b.child);
    await waitFor(async () => b.output.join("").includes("waiting as a standby"), "the standby");
    await waitFor(async () => (await countIn()) > 0, "the first batch");

    // Connections die while batches are in flight: neither process may exit, and indexing must go on.
    await cluster.restart();
    devnet.setFaults({ latencyMs: 0 });
    await waitFor(
      async () => (await countIn()) >= total,
      "the back-fill to finish after the restart",
      countIn,
    );
    expect([a.child.exitCode, b.child.exitCode]).toEqual([null, null]);
    for (const c of [a, b]) c.child.kill("SIGTERM");
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
    expect(await countIn()).toBe(total);
  });

  it("stops within one batch of SIGTERM mid-back-fill and exits 0 without a publishing error", async () => {
    devnet = await startNamingDevnet({
      scenario: "bulk",
      closeIntervalMs: 0,
      bulk: { namespaces: 2, events: 40_002, eventsPerLedger: 2_000, holders: 20 },
    });
    database = await createTestDatabase("postgres");
    devnet.setFaults({ latencyMs: 50 });
    const a = spawnIndexer(devnet, database.url);
    children.push(a.child);
    await waitFor(async () => (await archived()) > 0, "the first batch");
    const atTerm = await archived();
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    // At most the batches in flight commit: one page (10,000 events) per concurrent stream (two on PostgreSQL).
    const after = await archived();
    expect(after - atTerm).toBeLessThanOrEqual(2 * 10_000);
    expect(after).toBeLessThan(devnet.bulk?.events ?? 0);
    expect(a.output.join("")).not.toContain("could not publish");
  });

  it("corrects the API's resolve cache even when the writer is killed right after its commit", async () => {
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    database = await createTestDatabase("postgres");
    const a = spawnIndexer(devnet, database.url);
    children.push(a.child);
    await waitFor(async () => (await archived()) >= 32, "the demo to be indexed", archived);
    const app = await buildApp({
      config: testConfig({ PRIMARY_ID: devnet.contracts.primary }),
      db: database,
      redis: null,
      chain: { head: () => new RpcClient(devnet?.rpcUrl ?? "", { retries: 0 }).getLatestLedger() },
      now: () => new Date(),
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
    });
    try {
      const resolve = async () => (await app.inject({ url: "/v1/resolve/acme/bob" })).json();
      const before = await resolve();
      expect(await resolve()).toEqual(before); // cached now
      const chain = devnet;
      const wallet = settlingWallet(chain);
      const renewedTo = BigInt(chain.chain.latest.closeTime) + 3n * 365n * 86_400n;
      const registrar = chain.demo?.namespaces.acme.registrar ?? "";
      await wallet.invoke(demoKeypair("acme"), registrar, RegistrarFns.renew, {
        label: "bob",
        expiresAt: renewedTo,
      });
      const committed = async () => {
        const [row] =
          (await database?.query<{ e: string }>("select expires_at::text as e from names where node = $1", [
            nameNode("bob", "acme"),
          ])) ?? [];
        return row?.e === renewedTo.toString();
      };
      await waitFor(committed, "the renewal to commit");
      a.child.kill("SIGKILL"); // before an after-commit publisher could have sent anything
      await a.exited;
      await vi.waitFor(
        async () =>
          expect((await resolve()).expires_at).toBe(new Date(Number(renewedTo) * 1000).toISOString()),
        { timeout: 10_000, interval: 20 },
      );
    } finally {
      await app.close();
    }
  });
});

const CHECKSUMMED = [
  "events",
  "name_history",
  "names",
  "namespaces",
  "resolver_records",
  "subnames",
] as const;

/** An order-independent digest of a table's chain-derived columns (ingestion times and serial ids left out). */
async function checksum(database: TestDatabase, table: (typeof CHECKSUMMED)[number]): Promise<string> {
  const cols = await database.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_name = $1 and column_name not in ('id', 'ingested_at', 'updated_at') order by column_name",
    [table],
  );
  const row = `concat_ws('|', ${cols.map((c) => pg.escapeIdentifier(c.column_name)).join(", ")})`;
  const value = table === "events" ? `id || '|' || ${row}` : row;
  const [r] = await database.query<{ n: string; sum: string }>(
    `select count(*) as n, md5(coalesce(string_agg(${value}, ',' order by ${value}), '')) as sum from ${table}`,
  );
  return `${r?.n}:${r?.sum}`;
}
