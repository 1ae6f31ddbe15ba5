// A watcher whose cursor fell out of the RPC's retention (docs/operations.md "A watcher past the RPC's retention"),
// with the devnet's retention fault: the gap is recorded on the cursor, the watcher judges nothing and says what to
// run, /v1/status shows it, and `namereg billing catch-up --rpc` reads the range through an RPC that holds it.
import { fileURLToPath } from "node:url";
import { type Devnet, startDevnet, Wallet } from "@namereg/devnet";
import { Asset, Keypair, Memo, Operation } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../test/fixtures/child-processes.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { BACKSTOP_MS } from "../../test/fixtures/progress.ts";
import { BILLING_CATCH_UP, BILLING_CURSOR, billingComponent } from "../billing/status.ts";
import { BillingWatcher } from "../billing/watcher.ts";
import { rpcServer } from "../chain/rpc-server.ts";
import { billingPayments, paymentCursors } from "../db/tables.ts";
import { RetentionGapError } from "./retention-gap.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
const RETENTION = 5;

describe("a billing watcher past the RPC's retention", { timeout: BACKSTOP_MS }, () => {
  let devnet: Devnet;
  let database: TestDatabase;
  const billing = Keypair.random();
  const payer = Keypair.random();
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0 });
    database = await createTestDatabase("postgres");
    devnet.fund(billing.publicKey());
    devnet.fund(payer.publicKey());
    devnet.closeLedger();
  }, 120_000);
  afterAll(async () => {
    await devnet?.stop();
    await database?.close();
  });

  const watcher = () =>
    new BillingWatcher({
      db: database.db,
      server: rpcServer(devnet.rpcUrl),
      networkPassphrase: devnet.networkPassphrase,
      account: billing.publicKey(),
      pricePerPeriod: 100_000_000n,
      startLedger: devnet.chain.latest.sequence,
    });
  const catchUp = () =>
    runInGroup(process.execPath, [CLI, "billing", "catch-up", "--rpc", devnet.rpcUrl], {
      env: {
        ...process.env,
        LOG_LEVEL: "silent",
        DATABASE_URL: database.url,
        NETWORK_PASSPHRASE: devnet.networkPassphrase,
        BILLING_ACCOUNT: billing.publicKey(),
      },
    });

  it("records the gap, stops judging and names the command; catch-up --rpc reads the range", async () => {
    await watcher().ingest();
    // A payment the watcher has not read yet, then enough ledgers for it to fall out of a 5-ledger retention.
    const wallet = new Wallet({
      rpcUrl: devnet.rpcUrl,
      networkPassphrase: devnet.networkPassphrase,
      settle: async () => void devnet.closeLedger(),
    });
    const paid = await wallet.classic(
      payer,
      Operation.payment({ destination: billing.publicKey(), asset: Asset.native(), amount: "10" }),
      Memo.text("late"),
    );
    for (let i = 0; i < 20; i++) devnet.closeLedger();
    devnet.setFaults({ retentionLedgers: RETENTION });
    const head = devnet.chain.latest.sequence;
    const oldest = head - RETENTION + 1;

    const failed = await watcher()
      .ingest()
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failed).toBeInstanceOf(RetentionGapError);
    const gap = (failed as RetentionGapError).gap;
    expect(gap.fromLedger).toBeLessThanOrEqual(paid.ledger);
    expect(gap.toLedger).toBe(oldest - 1);
    expect((failed as RetentionGapError).firstSeen).toBe(true);
    expect((failed as Error).message).toContain("namereg billing catch-up --rpc");
    // Nothing was skipped: the payment is not stored, and the cursor did not move past the gap.
    expect(await database.db.select().from(billingPayments)).toEqual([]);
    // Asked again, the same gap, no longer news.
    const again = await watcher()
      .ingest()
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(again).toMatchObject({
      firstSeen: false,
      gap: { fromLedger: gap.fromLedger, toLedger: gap.toLedger },
    });

    const status = await billingComponent(database.db, new Date());
    expect(status).toMatchObject({
      name: "Billing watcher",
      state: "down",
      gap: { fromLedger: gap.fromLedger, toLedger: oldest - 1, recovery: BILLING_CATCH_UP },
    });

    // An RPC that does not hold the range cannot fill it, and says so.
    const refused = await catchUp();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(
      `not filled: ledgers ${gap.fromLedger}–${gap.toLedger}: this RPC's oldest ledger is ${oldest}, after the gap's first ledger ${gap.fromLedger}\n`,
    );

    // One that holds it (here the same devnet with its full retention back, standing in for an archive RPC).
    devnet.setFaults({ retentionLedgers: null });
    const filled = await catchUp();
    expect(filled).toMatchObject({ code: 0, stderr: "" });
    expect(filled.stdout).toMatch(
      new RegExp(
        `^filled ledgers ${gap.fromLedger}–${gap.toLedger}: 1 payment\\(s\\) read; the billing watcher carries on from ledger \\d+\\n$`,
      ),
    );
    const stored = await database.db.select().from(billingPayments);
    expect(stored.map((p) => p.txHash)).toEqual([paid.hash]);
    const [cursor] = await database.db
      .select()
      .from(paymentCursors)
      .where(eq(paymentCursors.name, BILLING_CURSOR));
    expect(cursor).toMatchObject({ gapFromLedger: null, gapToLedger: null, gapSince: null });

    // With the short retention again, the watcher carries on from where catch-up left its cursor.
    devnet.setFaults({ retentionLedgers: RETENTION });
    await expect(watcher().ingest()).resolves.toBe(0);
    expect((await billingComponent(database.db, new Date())).gap).toBeUndefined();
  });
});
