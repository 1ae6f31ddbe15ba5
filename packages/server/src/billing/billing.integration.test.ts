// Billing end to end on the devnet (docs/billing.md): real signed payments to the billing account, the indexer,
// the watcher, the directory and the owner's console, on both databases.
import { demoKeypair } from "@namereg/devnet";
import { AllocatorFns, namespaceNode } from "@namereg/protocol";
import { Account, Asset, Keypair, Memo, Operation, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingHarness, demoPayers, startBillingHarness } from "../../test/fixtures/billing.ts";
import { createTestDatabase, FEATURE_DATABASE_KINDS } from "../../test/fixtures/database.ts";
import { runUntilIdle } from "../../test/fixtures/demo.ts";
import { transferNativeToken } from "../../test/fixtures/token-transfer.ts";
import { bearer, signIn } from "../../test/fixtures/wallet-auth.ts";
import type { App } from "../api/app.ts";
import { readChanges } from "../db/outbox.ts";
import { billingActions, billingPayments, paymentCursors, subscriptions } from "../db/tables.ts";
import { applyQuarantined, listQuarantined, resolveQuarantined, setSuspended } from "./operator.ts";
import { PERIOD_MS } from "./terms.ts";
import { BillingWatcher } from "./watcher.ts";

const PAST = "2020-01-01T00:00:00Z";
const FUTURE = "2100-01-01T00:00:00Z";
const PRICE = 100_000_000n;

describe.each(FEATURE_DATABASE_KINDS)("billing on the devnet (%s)", (kind) => {
  let h: BillingHarness;
  const payers = demoPayers();
  beforeAll(async () => {
    h = await startBillingHarness(kind);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const json = async (app: App, url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ url, headers });
    return { status: response.statusCode, body: response.json() };
  };
  const billingStatus = async (app: App) => {
    const { body } = await json(app, "/v1/status");
    return (body.components as { name: string; cursorAgeSeconds?: number }[]).find(
      (c) => c.name === "Billing watcher",
    );
  };
  const roster = async (app: App) => {
    const { body } = await json(app, "/v1/directory/namespaces");
    return { filtered: body.filtered, labels: (body.namespaces as { label: string }[]).map((n) => n.label) };
  };

  it("reports the Billing watcher unknown before its first poll", async () => {
    expect(await billingStatus(await h.app())).toEqual({
      name: "Billing watcher",
      state: "unknown",
      cursorAgeSeconds: null,
      quarantined: 0,
    });
  });

  it("credits whole periods from the payment's time, and a renewal before the lapse extends paid-until", async () => {
    const first = await h.payFor(payers.acme, "acme", "10");
    await h.sync();
    const applied = await h.payment(first.id);
    expect(applied).toMatchObject({ state: "applied", namespace: "acme", periods: 1, reason: null });
    const start = applied?.closedAt.getTime() ?? 0;
    expect((await h.subscription("acme"))?.activeUntil?.getTime()).toBe(start + PERIOD_MS);

    const renewal = await h.payFor(payers.acme, "acme", "20");
    await h.sync();
    expect(await h.payment(renewal.id)).toMatchObject({ state: "applied", periods: 2 });
    expect((await h.subscription("acme"))?.activeUntil?.getTime()).toBe(start + 3 * PERIOD_MS);

    for (const [payer, ns] of [
      [payers.forsale, "forsale"],
      [payers.winner, "winner"],
    ] as const) {
      await h.payFor(payer, ns, "10");
    }
    await h.sync();
    expect((await h.subscription("winner"))?.status).toBe("active");
  });

  it("announces each credited payment as billing.paid, and a passed paid-until once as billing.lapsed", async () => {
    const db = h.database.db;
    const paid = await readChanges(db, 0, 1000, { types: ["billing.paid"] });
    const acme = await db.select().from(billingPayments).where(eq(billingPayments.namespace, "acme"));
    expect(paid.filter((c) => c.namespace === "acme").map((c) => c.eventId)).toEqual(
      acme.sort((a, b) => a.toid.localeCompare(b.toid)).map((p) => p.id),
    );
    const renewal = paid.filter((c) => c.namespace === "acme")[1];
    const row = acme.find((p) => p.id === renewal?.eventId);
    expect(renewal).toMatchObject({
      node: namespaceNode("acme"),
      ledger: row?.ledger,
      txHash: row?.txHash,
      data: { periods: 2, amountXlm: "20.0000000", paidUntil: row?.paidUntil?.toISOString() },
    });

    // Past every paid-until: one announcement each, however many passes follow.
    const later = h.watcher({ now: () => new Date(Date.now() + 10 * PERIOD_MS) });
    const first = await later.runOnce();
    expect(first.lapsed).toBe(3);
    expect((await later.runOnce()).lapsed).toBe(0);
    const lapsed = await readChanges(db, 0, 1000, { types: ["billing.lapsed"] });
    expect(lapsed.map((c) => c.namespace).sort()).toEqual(["acme", "forsale", "winner"]);
    const acmeLapse = lapsed.find((c) => c.namespace === "acme");
    expect(acmeLapse).toMatchObject({
      eventId: renewal?.eventId,
      data: { paidUntil: (await h.subscription("acme"))?.activeUntil?.toISOString() },
    });
  });

  it("quarantines every payment it cannot apply with certainty, with the reason", async () => {
    const plain = payers.plain;
    const cases = [
      [await h.pay(plain, "10", null), "no_memo"],
      [await h.pay(plain, "10", { text: "plain" }), "memo_not_hash"],
      [await h.pay(plain, "10", { hash: "ab".repeat(32) }), "unknown_namespace"],
      [await h.payFor(plain, "plain", "5"), "below_price"],
      [await h.payFor(plain, "plain", "15"), "remainder"],
    ] as const;
    await h.sync();
    for (const [payment, reason] of cases) {
      expect(await h.payment(payment.id)).toMatchObject({ state: "quarantined", reason, periods: null });
    }
    // Nothing of it counts: plain was never paid for.
    expect(await h.subscription("plain")).toBeUndefined();
    const status = await billingStatus(await h.app());
    expect(status).toMatchObject({ name: "Billing watcher", state: "degraded", quarantined: 5 });
    expect(status?.cursorAgeSeconds).toBeLessThanOrEqual(5);
  });

  it("waits for the indexer before calling a namespace unknown", async () => {
    const owner = demoKeypair("newco");
    const label = `b${Date.now().toString(36)}`;
    const { Wallet } = await import("@namereg/devnet");
    const wallet = new Wallet({
      rpcUrl: h.devnet.rpcUrl,
      networkPassphrase: h.devnet.networkPassphrase,
      settle: async () => void h.devnet.closeLedger(),
    });
    await wallet.invoke(demoKeypair("admin"), h.devnet.contracts.allocator, AllocatorFns.reserve, {
      label,
      owner: owner.publicKey(),
    });
    const paid = await h.payFor(owner, label, "10");
    const watcher = h.watcher();
    const early = await watcher.runOnce(); // the indexer has not seen the namespace yet
    expect(early).toMatchObject({ applied: 0, quarantined: 0, waiting: 1 });
    expect(await h.payment(paid.id)).toMatchObject({ state: "pending" });
    await runUntilIdle(h.indexer);
    expect(await watcher.runOnce()).toMatchObject({ applied: 1, waiting: 0 });
    expect(await h.payment(paid.id)).toMatchObject({ state: "applied", namespace: label });
  });

  it("filters the directory only once enforcement starts, listing only active namespaces", async () => {
    const grace = await h.app(FUTURE);
    expect(await roster(grace)).toEqual({
      filtered: false,
      labels: expect.arrayContaining(["acme", "forsale", "plain", "winner"]),
    });
    const enforced = await h.app(PAST);
    const listed = await roster(enforced);
    expect(listed.filtered).toBe(true);
    expect(listed.labels).toEqual(expect.arrayContaining(["acme", "forsale", "winner"]));
    expect(listed.labels).not.toContain("plain");

    // carol holds carol.plain: absent while plain is lapsed; alice's alice.acme stays.
    const carol = demoKeypair("carol").publicKey();
    const alice = demoKeypair("alice").publicKey();
    expect((await json(enforced, `/v1/directory/reverse/${carol}`)).body).toEqual({
      address: carol,
      filtered: true,
      entries: [],
    });
    const aliceNames = (await json(enforced, `/v1/directory/reverse/${alice}`)).body.entries as {
      name: string;
    }[];
    expect(aliceNames.map((e) => e.name)).toContain("alice.acme");
    expect((await json(grace, `/v1/directory/reverse/${carol}`)).body.entries).toEqual([
      expect.objectContaining({ name: "carol.plain" }),
    ]);

    // Resolution is never affected by billing.
    expect((await enforced.inject({ url: "/v1/resolve/plain/carol" })).statusCode).toBe(200);
  });

  it("lets an operator apply or resolve a quarantined payment, recording why", async () => {
    const [remainder] = (await listQuarantined(h.database.db)).filter((p) => p.reason === "remainder");
    const [noMemo] = (await listQuarantined(h.database.db)).filter((p) => p.reason === "no_memo");
    if (remainder === undefined || noMemo === undefined) throw new Error("the quarantine test ran first");
    const now = h.now();
    await expect(
      applyQuarantined(h.database.db, remainder.id, "plain", { reason: " ", pricePerPeriod: PRICE, now }),
    ).rejects.toThrow(/--reason/);
    const result = await applyQuarantined(h.database.db, remainder.id, "plain", {
      reason: "owner asked: 15 XLM for plain, 5 back",
      pricePerPeriod: PRICE,
      now,
    });
    expect(result).toEqual({
      periods: 1,
      paidUntil: new Date(now.getTime() + PERIOD_MS),
      remainder: 50_000_000n,
    });
    await expect(
      applyQuarantined(h.database.db, remainder.id, "plain", { reason: "again", pricePerPeriod: PRICE, now }),
    ).rejects.toThrow(/applied, not quarantined/);
    await resolveQuarantined(h.database.db, noMemo.id, { reason: "refunded by hand, tx 00ff", now });
    expect(await h.payment(noMemo.id)).toMatchObject({
      state: "resolved",
      resolution: "refunded by hand, tx 00ff",
    });
    const actions = await h.database.db.select().from(billingActions);
    expect(actions.map((a) => [a.action, a.paymentId, a.reason])).toEqual(
      expect.arrayContaining([
        ["apply", remainder.id, "owner asked: 15 XLM for plain, 5 back"],
        ["resolve", noMemo.id, "refunded by hand, tx 00ff"],
      ]),
    );
    expect(await billingStatus(await h.app())).toMatchObject({ quarantined: 3 });
    // plain is paid now, so it is listed under enforcement.
    expect((await roster(await h.app(PAST))).labels).toContain("plain");
  });

  it("hides a suspended namespace whatever it paid, and shows it again on resume", async () => {
    const enforced = await h.app(PAST);
    expect(await setSuspended(h.database.db, "acme", true, { reason: "abuse report 17", now: h.now() })).toBe(
      "suspended",
    );
    expect((await roster(enforced)).labels).not.toContain("acme");
    expect(await setSuspended(h.database.db, "acme", false, { reason: "resolved", now: h.now() })).toBe(
      "active",
    );
    expect((await roster(enforced)).labels).toContain("acme");
  });

  it("shows the owner its subscription and how to pay; refuses others", async () => {
    const app = await h.app(PAST);
    const token = await signIn(app, payers.acme);
    const mine = await json(app, "/console/billing", { ...bearer(token), "x-service-namespace": "acme" });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      namespace: "acme",
      node: namespaceNode("acme"),
      state: "active",
      enforced: true,
      instructions: {
        account: h.billing.publicKey(),
        asset: "native",
        memoType: "hash",
        memoHash: namespaceNode("acme"),
        pricePerPeriodXlm: "10",
        periodDays: 30,
      },
    });
    expect(mine.body.paidUntil).toBe((await h.subscription("acme"))?.activeUntil?.toISOString());
    expect(mine.body.payments.map((p: { state: string; amount: string }) => [p.state, p.amount])).toEqual([
      ["applied", "20"],
      ["applied", "10"],
    ]);

    const stranger = Keypair.random();
    await fetch(`${h.devnet.rpcUrl}/friendbot?addr=${stranger.publicKey()}`);
    const other = await signIn(app, stranger);
    const refused = await json(app, "/console/billing", { ...bearer(other), "x-service-namespace": "acme" });
    expect(refused).toMatchObject({ status: 403, body: { error: "not_namespace_owner" } });
    expect((await json(app, "/console/billing")).status).toBe(401);
  });

  it("neither loses nor double-counts a payment when the watcher restarts from an older cursor", async () => {
    const before = (await h.subscription("winner"))?.activeUntil?.getTime() ?? 0;
    const paid = await h.payFor(payers.winner, "winner", "10");
    // A watcher that stored the page and died before deciding: the next one decides it once.
    await h.watcher().ingest();
    expect(await h.payment(paid.id)).toMatchObject({ state: "pending" });
    // And a cursor set back (a restore, a crash between pages): the page is read again, nothing is added.
    await h.database.db
      .update(paymentCursors)
      .set({ cursor: null })
      .where(eq(paymentCursors.name, "billing"));
    const rerun = await h.watcher().runOnce();
    expect(rerun.applied).toBe(1);
    expect(await h.watcher().runOnce()).toMatchObject({ received: 0, applied: 0 });
    const after = (await h.subscription("winner"))?.activeUntil?.getTime() ?? 0;
    expect(after - before).toBe(PERIOD_MS);
    const rows = await h.database.db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.txHash, paid.hash));
    expect(rows).toHaveLength(1);
  });

  it("restarts a lapsed subscription from the renewal's time", async () => {
    // forsale's paid time ran out 10 days ago (the row says so; the chain's clock cannot be wound forward under
    // a wallet whose transactions carry wall-clock time bounds).
    const lapsedAt = new Date(Date.now() - 10 * 86_400_000);
    await h.database.db
      .update(subscriptions)
      .set({ activeUntil: lapsedAt })
      .where(eq(subscriptions.namespace, "forsale"));
    expect((await roster(await h.app(PAST))).labels).not.toContain("forsale");
    const renewal = await h.payFor(payers.forsale, "forsale", "10");
    await h.sync();
    const row = await h.payment(renewal.id);
    expect(row).toMatchObject({ state: "applied", periods: 1 });
    expect((await h.subscription("forsale"))?.activeUntil?.getTime()).toBe(
      (row?.closedAt.getTime() ?? 0) + PERIOD_MS,
    );
    expect((await roster(await h.app(PAST))).labels).toContain("forsale");
  });

  it("quarantines a payment made before its namespace existed, however late the watcher decides it", async () => {
    // Decided promptly (the indexer at the payment's ledger) the node is unknown; a watcher catching up after
    // the namespace was allocated must decide the same, not credit a namespace that did not exist when paid.
    const label = `l${Date.now().toString(36)}`;
    const paid = await h.payFor(payers.plain, label, "10");
    const { Wallet } = await import("@namereg/devnet");
    const wallet = new Wallet({
      rpcUrl: h.devnet.rpcUrl,
      networkPassphrase: h.devnet.networkPassphrase,
      settle: async () => void h.devnet.closeLedger(),
    });
    await wallet.invoke(demoKeypair("admin"), h.devnet.contracts.allocator, AllocatorFns.reserve, {
      label,
      owner: demoKeypair("newco").publicKey(),
    });
    await h.sync();
    expect(await h.payment(paid.id)).toMatchObject({
      state: "quarantined",
      reason: "unknown_namespace",
      periods: null,
    });
    expect(await h.subscription(label)).toBeUndefined();
  });

  it("counts an empty poll as a poll: the cursor age falls back to zero", async () => {
    h.clock.offsetMs = 90_000;
    try {
      const app = await h.app();
      expect((await billingStatus(app))?.cursorAgeSeconds).toBeGreaterThanOrEqual(89);
      expect(await h.watcher().runOnce()).toMatchObject({ received: 0 });
      expect((await billingStatus(app))?.cursorAgeSeconds).toBeLessThanOrEqual(5);
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  it("quarantines XLM sent by a native-token transfer with a namespace's memo, and dust: held for the operator, never credited", async () => {
    const { Wallet } = await import("@namereg/devnet");
    const wallet = new Wallet({
      rpcUrl: h.devnet.rpcUrl,
      networkPassphrase: h.devnet.networkPassphrase,
      settle: async () => void h.devnet.closeLedger(),
    });
    const before = await h.subscription("forsale");
    const quarantinedBefore = (await listQuarantined(h.database.db)).length;
    const sent = await transferNativeToken(
      wallet,
      payers.forsale,
      h.billing.publicKey(),
      2n * PRICE,
      namespaceNode("forsale"),
    );
    const dust = await h.payFor(payers.forsale, "forsale", "0.0000001");
    await h.sync();
    expect(await h.payment(dust.id)).toMatchObject({
      state: "quarantined",
      reason: "below_price",
      amount: 1n,
    });
    const rows = await h.database.db
      .select()
      .from(billingPayments)
      .where(eq(billingPayments.txHash, sent.hash));
    expect(rows.map((r) => [r.state, r.reason, r.asset, r.amount, r.source, r.periods])).toEqual([
      ["quarantined", "token_transfer", "native", 2n * PRICE, payers.forsale.publicKey(), null],
    ]);
    // Nothing credited on a guess.
    expect((await h.subscription("forsale"))?.activeUntil).toEqual(before?.activeUntil);
    expect((await listQuarantined(h.database.db)).length).toBe(quarantinedBefore + 2);
    expect(await billingStatus(await h.app())).toMatchObject({
      state: "degraded",
      quarantined: quarantinedBefore + 2,
    });
  });
});

describe("a payment in another asset", () => {
  it("is quarantined as not_native (a real signed envelope served as a getTransactions page)", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const passphrase = "Test SDF Network ; September 2015";
      const billing = Keypair.random();
      const payer = Keypair.random();
      const issuer = Keypair.random();
      const tx = new TransactionBuilder(new Account(payer.publicKey(), "1"), {
        fee: "100",
        networkPassphrase: passphrase,
      })
        .addOperation(
          Operation.payment({
            destination: billing.publicKey(),
            asset: new Asset("USDC", issuer.publicKey()),
            amount: "10",
          }),
        )
        .addMemo(Memo.hash(namespaceNode("acme")))
        .setTimeout(0)
        .build();
      tx.sign(payer);
      const info = {
        status: rpc.Api.GetTransactionStatus.SUCCESS,
        ledger: 100,
        createdAt: 1_790_000_000,
        applicationOrder: 1,
        txHash: Buffer.from(tx.hash()).toString("hex"),
        envelopeXdr: tx.toEnvelope(),
      };
      const server = {
        getLatestLedger: async () => ({ sequence: 100 }),
        getTransactions: async () => ({ transactions: [info], cursor: "c1", latestLedger: 100 }),
      } as unknown as rpc.Server;
      const watcher = new BillingWatcher({
        db: database.db,
        server,
        networkPassphrase: passphrase,
        account: billing.publicKey(),
        pricePerPeriod: PRICE,
        startLedger: 100,
      });
      expect(await watcher.runOnce()).toEqual({
        received: 1,
        applied: 0,
        quarantined: 1,
        waiting: 0,
        lapsed: 0,
      });
      const [row] = await database.db.select().from(billingPayments);
      expect(row).toMatchObject({
        state: "quarantined",
        reason: "not_native",
        asset: `USDC:${issuer.publicKey()}`,
        amount: PRICE,
      });
    } finally {
      await database.close();
    }
  });
});
