// The allocator's mirror after indexing the demo chain (claims newco announced, contested objected, winner
// awarded; a 100 XLM fee), then a withdrawal and a credit recovery signed by another account, on PGlite and on
// PostgreSQL.
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { AllocatorFns } from "@namereg/protocol";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../test/fixtures/database.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../test/fixtures/demo.ts";
import {
  claimCredits,
  claimFeePolicy,
  claimFeeReceipts,
  claimObjections,
  claims,
  deadLetters,
  feeReceipts,
} from "../../db/tables.ts";

const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();
const FEE = 1_000_000_000n; // 100 XLM
const BOND = 100_000_000n; // 10 XLM

describe.each(FEATURE_DATABASE_KINDS)("allocator projection of the demo on %s", (kind) => {
  let chain: IndexedDemoChain;
  beforeAll(async () => {
    chain = await indexDemo(kind);
  }, 120_000);
  afterAll(async () => {
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  it("holds the three demo claims with their state, basis, evidence, times and fee outcome", async () => {
    const db = chain.database.db;
    const rows = await db.select().from(claims).orderBy(asc(claims.id));
    expect(
      rows.map((c) => [
        c.label,
        c.claimant,
        c.state,
        c.basis,
        c.feeOutcome,
        c.awardedAt !== null,
        c.response,
      ]),
    ).toEqual([
      ["newco", pk("newco"), "announced", ["trademark"], "Held", false, null],
      ["contested", pk("contested"), "objected", ["trademark"], "Held", false, null],
      ["winner", pk("winner"), "awarded", ["brand"], "Awarded", true, null],
    ]);
    for (const c of rows) {
      expect(c.evidence).toEqual([
        { label: "Trademark registration", url: `https://evidence.example/${c.label}` },
      ]);
      expect(c.announcedAt).toBeInstanceOf(Date);
      // Chain time, not ingestion time: the demo's history lies days in the past.
      expect(c.announcedAt?.getTime() ?? Date.now()).toBeLessThan(Date.now() - 3600_000);
      expect(c.deadline).toBeGreaterThan(BigInt(Math.floor((c.announcedAt?.getTime() ?? 0) / 1000)));
    }
    const objections = await db.select().from(claimObjections);
    expect(objections.map((o) => [o.claimId, o.objector, o.basis, o.bond, o.live, o.endReason])).toEqual([
      [chain.devnet.demo?.claims.contested, pk("objector"), ["prior_use"], BOND, true, null],
    ]);
  });

  it("keeps a receipt per label and per epoch, the policy, and no dead letters", async () => {
    const db = chain.database.db;
    const receipts = await db.select().from(feeReceipts).orderBy(asc(feeReceipts.label));
    expect(
      receipts.map((r) => [
        r.label,
        r.epoch,
        r.claimant,
        r.amount,
        r.outcome,
        r.refundAmount,
        r.treasuryAmount,
      ]),
    ).toEqual([
      ["contested", 1, pk("contested"), FEE, "Held", 0n, 0n],
      ["newco", 1, pk("newco"), FEE, "Held", 0n, 0n],
      ["winner", 1, pk("winner"), FEE, "Awarded", 0n, FEE],
    ]);
    expect(receipts.find((r) => r.label === "winner")?.recipient).toBe(pk("treasury"));
    const epochs = await db.select().from(claimFeeReceipts).orderBy(asc(claimFeeReceipts.label));
    expect(epochs.map((r) => [r.label, r.epoch, r.outcome, r.claimId])).toEqual(
      receipts.map((r) => [r.label, 1, r.outcome, r.claimId]),
    );
    expect(await db.select().from(claimFeePolicy)).toEqual([
      {
        allocatorId: chain.devnet.contracts.allocator,
        token: chain.devnet.contracts.nativeToken,
        amount: FEE,
        recipient: pk("treasury"),
        ledger: expect.any(Number),
        at: expect.any(Date),
      },
    ]);
    expect(await db.select().from(claimCredits)).toEqual([]);
    expect(await db.select().from(deadLetters)).toEqual([]);
  });

  it("a withdrawal refunds 80% as a credit, and a recovery signed by another account is recorded for the payee", async () => {
    const net = chain.devnet;
    const wallet = settlingWallet(net);
    const id = net.demo?.claims.newco ?? 0n;
    await wallet.invoke(demoKeypair("newco"), net.contracts.allocator, AllocatorFns.withdraw, { id });
    await runUntilIdle(chain.indexer);
    const db = chain.database.db;
    const refund = (FEE * 8000n) / 10000n;
    const [receipt] = await db.select().from(feeReceipts).where(eq(feeReceipts.label, "newco"));
    expect([receipt?.outcome, receipt?.refundAmount, receipt?.treasuryAmount]).toEqual([
      "Withdrawn",
      refund,
      FEE - refund,
    ]);
    const [claim] = await db.select().from(claims).where(eq(claims.id, id));
    expect([claim?.state, claim?.feeOutcome]).toEqual(["withdrawn", "Withdrawn"]);

    await wallet.invoke(demoKeypair("alice"), net.contracts.allocator, AllocatorFns.claim_fee_credit, {
      payee: pk("newco"),
    });
    await runUntilIdle(chain.indexer);
    expect(
      (await db.select().from(claimCredits)).map((c) => [c.kind, c.payee, c.credited, c.claimed]),
    ).toEqual([["fee", pk("newco"), refund, refund]]);
    expect(await db.select().from(deadLetters)).toEqual([]);
  });
});
