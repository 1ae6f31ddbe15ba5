// The payouts over the shared send loop (chain/send-by-hash.ts), with a stub RPC and an in-memory database: a
// stored envelope is not sent again when the chain knows its hash, a failed poll after the send does not fail
// the pass, and an envelope still unknown when the wall-time budget runs out is left signed for the next pass.
import {
  Account,
  Asset,
  Keypair,
  Networks,
  Operation,
  rpc,
  TimeoutInfinite,
  TransactionBuilder,
} from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, emptyTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { marketPayouts } from "../db/tables.ts";
import { sendPayouts } from "./payouts.ts";

const escrow = Keypair.random();
const destination = Keypair.random().publicKey();
const tx = new TransactionBuilder(new Account(escrow.publicKey(), "100"), {
  fee: "100",
  networkPassphrase: Networks.TESTNET,
})
  .addOperation(Operation.payment({ destination, asset: Asset.native(), amount: "2" }))
  .setTimeout(TimeoutInfinite)
  .build();
tx.sign(escrow);
const HASH = Buffer.from(tx.hash()).toString("hex");
const ID = "tx:0:refund";

const notFound = { status: rpc.Api.GetTransactionStatus.NOT_FOUND };
const success = { status: rpc.Api.GetTransactionStatus.SUCCESS, ledger: 31 };

/** getTransaction answers from a script (the last answer repeats; an Error is thrown); sends are counted. */
function stubServer(answers: unknown[]) {
  let sends = 0;
  const server = {
    async getTransaction() {
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async sendTransaction() {
      sends++;
      return { status: "PENDING", hash: HASH };
    },
  } as unknown as rpc.Server;
  return { server, sends: () => sends };
}

describe("sendPayouts over send-by-hash", () => {
  let db: TestDatabase;
  // One database for the file, emptied before each test (a new PGlite per test cost more than the tests).
  beforeAll(async () => {
    db = await createTestDatabase("pglite");
  });
  beforeEach(async () => {
    await emptyTestDatabase(db);
    // An obligation signed before a crash: its envelope and hash stored, its fate unknown.
    await db.db.insert(marketPayouts).values({
      id: ID,
      paymentId: "tx:0",
      purpose: "refund",
      destination,
      amount: 20_000_000n,
      state: "signed",
      envelope: tx.toXDR(),
      txHash: HASH,
    });
  });
  afterAll(async () => {
    await db.close();
  });

  const row = async () => (await db.db.select().from(marketPayouts).where(eq(marketPayouts.id, ID)))[0];
  const sender = (server: rpc.Server, extra: { budgetMs?: number; settle?: () => Promise<void> } = {}) => ({
    db: db.db,
    server,
    networkPassphrase: Networks.TESTNET,
    escrow,
    now: () => new Date(),
    settle: extra.settle ?? (async () => {}),
    attempts: 5,
    catchUp: async () => 0,
    ...(extra.budgetMs === undefined ? {} : { budgetMs: extra.budgetMs }),
  });

  it("asks the chain first and does not re-send an envelope it already holds", async () => {
    const s = stubServer([success]);
    expect(await sendPayouts(sender(s.server))).toBe(1);
    expect(s.sends()).toBe(0);
    expect(await row()).toMatchObject({ state: "paid", paidLedger: 31 });
  });

  it("pays in the same pass when one poll after the send fails", async () => {
    const s = stubServer([notFound, new Error("socket hang up"), success]);
    expect(await sendPayouts(sender(s.server))).toBe(1);
    expect(s.sends()).toBe(1);
    expect(await row()).toMatchObject({ state: "paid", paidLedger: 31 });
  });

  it("leaves the envelope signed when the wall-time budget runs out, and settles it by hash next pass", async () => {
    const first = stubServer([notFound]);
    let settles = 0;
    // Each pause outlasts the whole budget: at most one poll, then the budget ends the wait (not the 5 attempts).
    const slow = () =>
      new Promise<void>((resolve) => {
        settles++;
        setTimeout(resolve, 50);
      });
    expect(await sendPayouts(sender(first.server, { budgetMs: 5, settle: slow }))).toBe(0);
    expect(settles).toBeLessThanOrEqual(1);
    expect(await row()).toMatchObject({ state: "signed", txHash: HASH });
    const next = stubServer([success]);
    expect(await sendPayouts(sender(next.server))).toBe(1);
    expect(next.sends()).toBe(0);
    expect(await row()).toMatchObject({ state: "paid" });
  });
});
