// A database holding one chain's mirror, pointed at another (docs/operations.md "A different or reset chain"): a
// second devnet on the same database stands for a test network that was reset. The writer refuses it — while
// following (the RPC behind one address switches chains) and at start (a head below the mirror's, a known
// ledger with another hash, another network) — with one message; /v1/status says why; the watchers stop with it;
// `namereg dev` refuses a database that holds a mirror.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { Keypair } from "@stellar/stellar-sdk";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../test/fixtures/child-processes.ts";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { freePort } from "../../test/fixtures/free-port.ts";
import { BACKSTOP_MS, waitForProgress } from "../../test/fixtures/progress.ts";
import { buildApp } from "../api/app.ts";
import { BillingWatcher } from "../billing/watcher.ts";
import { rpcServer } from "../chain/rpc-server.ts";
import { indexerState } from "../db/tables.ts";
import { contractEnv } from "../runtime/commands/dev.ts";
import { runIndexerProcess } from "../runtime/indexer-process.ts";
import { ChainRefusedError } from "../watchers/retention-gap.ts";
import { ChainIdentityError, WAY_FORWARD } from "./chain-identity.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

/** One RPC address whose chain can be switched, as a provider's does when its network is reset. */
async function switchableRpc(
  target: string,
): Promise<{ url: string; target: string; close(): Promise<void> }> {
  const state = { target };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      fetch(state.target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      })
        .then(async (r) => {
          res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get target() {
      return state.target;
    },
    set target(next: string) {
      state.target = next;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("chain identity", { timeout: BACKSTOP_MS }, () => {
  let first: NamingDevnet;
  let second: NamingDevnet;
  let database: TestDatabase;
  beforeAll(async () => {
    [first, second, database] = await Promise.all([
      startNamingDevnet({ scenario: "none", closeIntervalMs: 0 }),
      startNamingDevnet({ scenario: "none", closeIntervalMs: 0 }),
      createTestDatabase("postgres"),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop(), database?.close()]);
  });

  const logger = pino({ level: "silent" });
  const configFor = (rpcUrl: string, env: Record<string, string> = {}) =>
    testConfig({
      DATABASE_URL: database.url,
      RPC_URL: rpcUrl,
      NETWORK_PASSPHRASE: first.networkPassphrase,
      ...contractEnv(first),
      INDEXER_HEAD_POLL_MS: "50",
      ...env,
    });
  const index = (rpcUrl: string, signal: AbortSignal, env?: Record<string, string>) =>
    runIndexerProcess({ config: configFor(rpcUrl, env), database, logger, signal });
  const refusal = (run: Promise<void>) =>
    run.then(
      () => null,
      (err: unknown) => err,
    );
  const processed = async () => (await database.db.select().from(indexerState))[0]?.processedLedger ?? 0;
  const indexerStatus = async () => {
    const app = await buildApp({ config: configFor(first.rpcUrl), db: database, redis: null });
    try {
      const body = (await app.inject({ url: "/v1/status" })).json() as {
        components: { name: string; state: string; reason?: string }[];
      };
      return body.components.find((c) => c.name === "Indexer");
    } finally {
      await app.close();
    }
  };

  it("stops a writer whose RPC went backwards while following, and says why", async () => {
    // The first chain runs well ahead of the second, with its own close times (so its ledgers' hashes differ).
    const base = first.chain.latest.closeTime;
    for (let i = 1; i <= 40; i++) first.closeLedger({ closeTime: BigInt(base) + BigInt(1000 + i) });
    const rpc = await switchableRpc(first.rpcUrl);
    const stop = new AbortController();
    try {
      const running = refusal(index(rpc.url, stop.signal));
      const head = first.chain.latest.sequence;
      await waitForProgress(async () => (await processed()) >= head, `the mirror at ledger ${head}`);
      rpc.target = second.rpcUrl;
      const err = await running;
      expect(err).toBeInstanceOf(ChainIdentityError);
      expect((err as Error).message).toBe(
        `the indexer stopped: the chain went backwards: this mirror has seen ledger ${head}, but the RPC's latest ledger is ${second.chain.latest.sequence} (a reset network, or another chain with the same passphrase). ${WAY_FORWARD}`,
      );
      expect(await indexerStatus()).toMatchObject({
        state: "down",
        reason: (err as ChainIdentityError).reason,
      });
      // The watchers judge nothing from it either.
      const billing = new BillingWatcher({
        db: database.db,
        server: rpcServer(second.rpcUrl),
        networkPassphrase: second.networkPassphrase,
        account: Keypair.random().publicKey(),
        pricePerPeriod: 1n,
      });
      await expect(billing.ingest()).rejects.toBeInstanceOf(ChainRefusedError);
    } finally {
      stop.abort();
      await rpc.close();
    }
  });

  it("refuses at start: a head below the mirror's, a known ledger's other hash, another network", async () => {
    const never = new AbortController().signal;
    expect(await refusal(index(second.rpcUrl, never))).toMatchObject({
      reason: expect.stringContaining("the chain went backwards"),
    });
    // The second chain grows past the first one's last known ledger: same height, another ledger there.
    while (second.chain.latest.sequence < first.chain.latest.sequence + 2) second.closeLedger();
    const err = await refusal(index(second.rpcUrl, never));
    expect(err).toBeInstanceOf(ChainIdentityError);
    expect((err as ChainIdentityError).reason).toMatch(
      /^ledger \d+ has the hash [0-9a-f]{64} on the RPC's chain, but [0-9a-f]{64} in this mirror: another chain \(a reset network\?\)$/,
    );
    expect(await indexerStatus()).toMatchObject({
      state: "down",
      reason: (err as ChainIdentityError).reason,
    });

    const testnet = "Test SDF Network ; September 2015";
    expect(await refusal(index(first.rpcUrl, never, { NETWORK_PASSPHRASE: testnet }))).toMatchObject({
      reason: `RPC_URL serves the network "${first.networkPassphrase}", not NETWORK_PASSPHRASE "${testnet}"`,
    });

    // Pointed back at its own chain, the writer starts, and the refusal is gone from /v1/status.
    const stop = new AbortController();
    const running = index(first.rpcUrl, stop.signal);
    await waitForProgress(
      async () => (await indexerStatus())?.state !== "down",
      "the writer on its own chain",
    );
    expect(await indexerStatus()).not.toHaveProperty("reason");
    stop.abort();
    await running;
  });

  it("namereg dev refuses a database that holds a mirror, in words", async () => {
    const [port, devnetPort, adminPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const run = await runInGroup(process.execPath, [CLI, "dev"], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        DEVNET_PORT: String(devnetPort),
        DEVNET_ADMIN_PORT: String(adminPort),
      },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^namereg dev: DATABASE_URL \(postgres:\/\/.*\) already holds a mirror \(up to ledger \d+ of "Standalone Network ; February 2017"\), and dev starts a new devnet, a different chain, on every run\. Give dev an empty database/,
    );
  });
});
