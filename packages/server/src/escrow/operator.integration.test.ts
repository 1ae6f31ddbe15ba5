// The operator's side on the devnet: a payout that cannot be delivered is parked (status degraded), released to
// another account with a recorded reason and paid; a release to an account that does not exist, too small to
// create it, is parked again; reconcile sees a shortfall and exits non-zero on it.
import { Keypair } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketHarness, startMarketHarness, xlm } from "../../test/fixtures/market.ts";
import { marketPayments, marketPayouts } from "../db/tables.ts";
import { DUST_REASON, owe } from "./obligations.ts";
import { listParked, reconcile, refundParked, releaseParked } from "./operator.ts";

describe("escrow operator tooling", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("pglite");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("parks dust aimed at a missing account, parks its release there again (too small to create it), then pays where the operator says", async () => {
    // A bounced payment whose obligation is aimed (as if by a past verdict) at an account that does not exist.
    const sender = await h.funded();
    const paid = await h.pay(sender, "2", null);
    await h.sync();
    const [bounce] = await h.database.db
      .select()
      .from(marketPayouts)
      .where(eq(marketPayouts.paymentId, `${paid.hash}:0`));
    expect(bounce?.state).toBe("paid");
    const nowhere = Keypair.random().publicKey();
    await owe(
      h.database.db,
      [{ paymentId: "manual:0", purpose: "refund", destination: nowhere, amount: xlm("0.5") }],
      new Date(),
    );
    await h.sync();
    const parked = await listParked(h.database.db);
    expect(parked.map((p) => [p.id, p.destination, p.amount, p.reason])).toEqual([
      ["manual:0:refund", nowhere, xlm("0.5"), DUST_REASON],
    ]);
    const status = (await h.app.inject({ url: "/v1/status" })).json();
    expect(status.components.find((c: { name: string }) => c.name === "Escrow watcher")).toMatchObject({
      state: "degraded",
      parkedPayouts: 1,
    });

    await expect(releaseParked(h.database.db, "manual:0:refund", { reason: "" })).rejects.toThrow(/reason/);
    await releaseParked(h.database.db, "manual:0:refund", { reason: "try the same account" });
    await h.sync();
    const [again] = await listParked(h.database.db);
    expect(again).toMatchObject({
      id: "manual:0:refund:release",
      reason: "destination account does not exist and 0.5000000 XLM cannot create it",
    });
    const target = await h.funded();
    const before = await h.balance(target.publicKey());
    await releaseParked(h.database.db, "manual:0:refund:release", {
      to: target.publicKey(),
      reason: "sender asked by mail",
    });
    await h.sync();
    expect((await h.balance(target.publicKey())) - before).toBe(xlm("0.5"));
    const rows = await h.database.db
      .select()
      .from(marketPayouts)
      .where(eq(marketPayouts.paymentId, "manual:0"));
    expect(rows.map((r) => [r.id, r.state]).sort()).toEqual([
      ["manual:0:refund", "released"],
      ["manual:0:refund:release", "released"],
      ["manual:0:refund:release:release", "paid"],
    ]);
    await expect(releaseParked(h.database.db, "manual:0:refund", { reason: "again" })).rejects.toThrow(
      /released/,
    );
  });

  it("reconcile holds on the real books and reports a shortfall as a mismatch", async () => {
    const ok = await reconcile(h.database.db, h.server, h.escrow.publicKey());
    expect(ok.ok).toBe(true);
    expect(ok.balance).toBe(await h.balance(h.escrow.publicKey()));
    // A deposit the escrow claims to hold but never received.
    await h.database.db.insert(marketPayments).values({
      id: "phantom:0",
      ledger: 1,
      toid: "0".repeat(19),
      closedAt: new Date(),
      txHash: "phantom",
      operationIndex: 0,
      source: h.escrow.publicKey(),
      asset: "native",
      amount: ok.float + 1n,
      memoType: "none",
      state: "funded",
      held: ok.float + 1n,
    });
    const short = await reconcile(h.database.db, h.server, h.escrow.publicKey());
    expect(short.ok).toBe(false);
    expect(short.float).toBe(-1n);
  });

  it("release never absorbs a parked XLM payment: it points to refund, and keeps it only when told --keep", async () => {
    const sender = (await h.funded()).publicKey();
    const id = "transfer:0:0";
    await h.database.db.insert(marketPayments).values({
      id,
      ledger: 1,
      toid: "0".repeat(19),
      closedAt: new Date(),
      txHash: "transfer",
      operationIndex: 0,
      source: sender,
      asset: "native",
      amount: xlm("5"),
      memoType: "none",
      state: "parked",
      verdict: "token_transfer",
    });
    const row = async () =>
      (await h.database.db.select().from(marketPayments).where(eq(marketPayments.id, id)))[0];
    // An operator who means "give it back" and types release: nothing is sent, so nothing may be marked settled.
    await expect(releaseParked(h.database.db, id, { reason: "give it back" })).rejects.toThrow(
      `${id} is 5.0000000 XLM held for ${sender}: send it back with namereg escrow refund ${id} --reason "…", ` +
        `or keep it in the escrow with namereg escrow release ${id} --keep --reason "…"`,
    );
    expect(await row()).toMatchObject({ state: "parked", verdict: "token_transfer" });
    expect(await listParked(h.database.db)).toContainEqual(expect.objectContaining({ id, amount: xlm("5") }));

    await releaseParked(h.database.db, id, { keep: true, reason: "the sender's own float top-up" });
    expect(await row()).toMatchObject({
      state: "released",
      verdict: "kept in the escrow: the sender's own float top-up",
    });
  });

  it("a second release says what became of the first: kept (nothing sent), released (sent as …:release), refunded", async () => {
    const sender = (await h.funded()).publicKey();
    await owe(
      h.database.db,
      [
        { paymentId: "twice:0", purpose: "bounce", destination: sender, amount: 1n },
        { paymentId: "twice:1", purpose: "bounce", destination: sender, amount: 2n },
      ],
      new Date(),
    );
    await releaseParked(h.database.db, "twice:0:bounce", { keep: true, reason: "dust spam" });
    await expect(
      releaseParked(h.database.db, "twice:0:bounce", { keep: true, reason: "again" }),
    ).rejects.toThrow("payout twice:0:bounce was kept in the escrow: dust spam, not parked");
    await releaseParked(h.database.db, "twice:1:bounce", { reason: "sender asked" });
    await expect(releaseParked(h.database.db, "twice:1:bounce", { reason: "again" })).rejects.toThrow(
      "payout twice:1:bounce was released (sender asked → twice:1:bounce:release), not parked",
    );
    await h.database.db.insert(marketPayments).values({
      id: "twice:2:0",
      ledger: 1,
      toid: "0".repeat(19),
      closedAt: new Date(),
      txHash: "twice",
      operationIndex: 2,
      source: sender,
      asset: "native",
      amount: xlm("3"),
      memoType: "none",
      state: "parked",
      verdict: "token_transfer",
    });
    await refundParked(h.database.db, "twice:2:0", { reason: "sent by transfer" });
    await expect(releaseParked(h.database.db, "twice:2:0", { keep: true, reason: "again" })).rejects.toThrow(
      "payment twice:2:0 is returned (refunded by the operator: sent by transfer), not parked",
    );
  });
});
