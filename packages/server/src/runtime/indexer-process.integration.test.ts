// `namereg index` as real processes against a devnet and a real PostgreSQL database: killed mid-backfill it
// resumes with nothing lost or duplicated; two of them never write at once, and a standby takes over.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { count } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { events } from "../db/tables.ts";
import { contractEnv } from "./commands.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

interface IndexerChild {
  child: ChildProcess;
  output: string[];
  active: Promise<void>;
  exited: Promise<number | null>;
}

function spawnIndexer(devnet: NamingDevnet, databaseUrl: string): IndexerChild {
  const child = spawn(process.execPath, [CLI, "index"], {
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
  let markActive: () => void = () => {};
  const active = new Promise<void>((resolve) => {
    markActive = resolve;
  });
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (text.includes("indexer active")) markActive();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output, active, exited };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("namereg index processes on PostgreSQL", () => {
  let devnet: NamingDevnet | undefined;
  let database: TestDatabase | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    children.length = 0;
    await devnet?.stop();
    await database?.close();
  });

  const archived = async () => Number((await database?.db.select({ n: count() }).from(events))?.[0]?.n ?? 0);

  it("resumes after SIGKILL mid-backfill with no lost and no duplicated rows", async () => {
    devnet = await startNamingDevnet({
      scenario: "bulk",
      closeIntervalMs: 0,
      bulk: { namespaces: 2, events: 40_002, eventsPerLedger: 2_000, holders: 20 },
    });
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
    await waitFor(async () => (await archived()) >= total, "the back-fill to finish");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(await archived()).toBe(total);
    const [dupes] = await database.query<{ n: string }>(
      "select count(*) - count(distinct id) as n from events",
    );
    expect(Number(dupes?.n)).toBe(0);
    const [names] = await database.query<{ n: string }>("select count(*) as n from names");
    expect(Number(names?.n)).toBe(40_000);
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
    await waitFor(async () => (await archived()) >= 32, "the demo to be indexed");
    expect(b.output.join("")).not.toContain("indexer active");

    a.child.kill("SIGKILL");
    await a.exited;
    const tookOver = Date.now();
    await b.active;
    expect(Date.now() - tookOver).toBeLessThan(10_000);
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
});
