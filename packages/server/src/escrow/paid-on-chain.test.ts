// The look-up before signing (paid-on-chain.ts) with a stub RPC and an in-memory database: an obligation whose
// payout the chain already holds (found by its memo among the escrow's own transactions) is recorded paid and not
// sent again; nothing is signed while those transactions are read short of the ledger the sequence number was read
// at; a payout the same payment's payout on chain excludes (a bounce of a deposit paid to its seller) is parked; a
// payout signed carries the hash memo of its obligation id; an envelope refused after its sequence number was
// used goes back to pending, one refused for what it is is parked.
import { createHash } from "node:crypto";
import { Account, Keypair, Networks, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, emptyTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { marketEscrowTransactions, marketPayouts } from "../db/tables.ts";
import { sendPayouts } from "./payouts.ts";

const escrow = Keypair.random();
const destination = Keypair.random().publicKey();
const ID = "aa11:0:bounce";
const MEMO = createHash("sha256").update(ID).digest("hex");
const AMOUNT = 50_000_000n;

/** An RPC whose escrow is at sequence `seq`, read at `ledger`; every send is kept, and answered `sendStatus`. */
function stubServer(o: { seq: bigint; ledger: number; sendStatus?: "PENDING" | "ERROR" }) {
  const sent: string[] = [];
  let seq = o.seq;
  const server = {
    async getLedgerEntries() {
      return { entries: [{ val: { type: "account", account: { seqNum: seq } } }], latestLedger: o.ledger };
    },
    async getAccount(id: string) {
      return new Account(id, seq.toString());
    },
    async getTransaction(hash: string) {
      return sent.includes(hash)
        ? { status: rpc.Api.GetTransactionStatus.SUCCESS, ledger: o.ledger + 1 }
        : { status: rpc.Api.GetTransactionStatus.NOT_FOUND };
    },
    async sendTransaction(tx: { hash(): Buffer }) {
      const hash = Buffer.from(tx.hash()).toString("hex");
      if (o.sendStatus === "ERROR") return { status: "ERROR", hash };
      sent.push(hash);
      return { status: "PENDING", hash };
    },
  } as unknown as rpc.Server;
  return { server, sent, useSequence: (n: bigint) => (seq = n) };
}

describe("the look-up on chain before signing a payout", () => {
  let db: TestDatabase;
  // One database for the file, emptied before each test (a new PGlite per test cost more than the tests).
  beforeAll(async () => {
    db = await createTestDatabase("pglite");
  });
  beforeEach(async () => {
    await emptyTestDatabase(db);
    const now = new Date();
    await db.db.insert(marketPayouts).values({
      id: ID,
      paymentId: "aa11:0",
      purpose: "bounce",
      destination,
      amount: AMOUNT,
      state: "pending",
      createdAt: now,
      updatedAt: now,
    });
  });
  afterAll(async () => {
    await db.close();
  });

  const row = async () => (await db.db.select().from(marketPayouts).where(eq(marketPayouts.id, ID)))[0];
  const sender = (server: rpc.Server, through: number) => ({
    db: db.db,
    server,
    networkPassphrase: Networks.TESTNET,
    escrow,
    now: () => new Date(),
    settle: async () => {},
    attempts: 3,
    catchUp: async () => through,
  });
  const onChain = (memo: string, successful: boolean) =>
    db.db.insert(marketEscrowTransactions).values({
      txHash: "f".repeat(64),
      ledger: 40,
      toid: "0000000171798691840",
      closedAt: new Date(),
      successful,
      sequence: "100",
      memoType: "hash",
      memo,
      feeCharged: 100n,
      paidFee: true,
      envelope: "AAAA",
      moves: [{ op: 0, type: "payment", destination, asset: "native", amount: AMOUNT.toString() }],
    });

  it("records an obligation paid when the escrow's transactions on chain hold its memo, and sends nothing", async () => {
    await onChain(MEMO, true);
    const s = stubServer({ seq: 100n, ledger: 50 });
    expect(await sendPayouts(sender(s.server, 50))).toBe(1);
    expect(s.sent).toEqual([]);
    expect(await row()).toMatchObject({ state: "paid", txHash: "f".repeat(64), paidLedger: 40 });
  });

  it("parks it when the payout found on chain failed there", async () => {
    await onChain(MEMO, false);
    const s = stubServer({ seq: 100n, ledger: 50 });
    expect(await sendPayouts(sender(s.server, 50))).toBe(1);
    expect(s.sent).toEqual([]);
    expect((await row())?.state).toBe("parked");
    expect((await row())?.parkedReason).toContain("failed on chain in ledger 40");
  });

  it("parks a bounce when the chain shows the same payment paid out to its seller (a verdict a restore changed)", async () => {
    await onChain(createHash("sha256").update("aa11:0:seller").digest("hex"), true);
    const s = stubServer({ seq: 100n, ledger: 50 });
    expect(await sendPayouts(sender(s.server, 50))).toBe(1);
    expect(s.sent).toEqual([]);
    expect(await row()).toMatchObject({ state: "parked" });
    expect((await row())?.parkedReason).toContain(`already paid out as aa11:0:seller (${"f".repeat(64)})`);
  });

  it("signs nothing while the escrow's transactions are read short of the ledger its sequence was read at", async () => {
    const s = stubServer({ seq: 100n, ledger: 50 });
    expect(await sendPayouts(sender(s.server, 49))).toBe(0);
    expect(s.sent).toEqual([]);
    expect(await row()).toMatchObject({ state: "pending", envelope: null });
  });

  it("pays with the next sequence number and the hash memo of the obligation id when nothing is found", async () => {
    await onChain("0".repeat(64), true);
    const s = stubServer({ seq: 100n, ledger: 50 });
    expect(await sendPayouts(sender(s.server, 50))).toBe(1);
    const paid = await row();
    expect(paid?.state).toBe("paid");
    expect(s.sent).toEqual([paid?.txHash]);
    const tx = TransactionBuilder.fromXDR(paid?.envelope ?? "", Networks.TESTNET);
    expect("sequence" in tx ? tx.sequence : null).toBe("101");
    expect(
      "memo" in tx ? [tx.memo.type, Buffer.from(tx.memo.value as Buffer).toString("hex")] : null,
    ).toEqual(["hash", MEMO]);
  });

  it("puts an envelope refused after its sequence number was used back to pending, to be looked up again", async () => {
    const s = stubServer({ seq: 100n, ledger: 50, sendStatus: "ERROR" });
    const send = sender(s.server, 50);
    // Refused while the sequence number is still free: the envelope itself is wrong, the operator decides.
    expect(await sendPayouts(send)).toBe(1);
    expect((await row())?.state).toBe("parked");
    await db.db
      .update(marketPayouts)
      .set({ state: "signed", parkedReason: null })
      .where(eq(marketPayouts.id, ID));
    // Another transaction took number 101 (an envelope of this obligation signed before a restore, say).
    s.useSequence(101n);
    expect(await sendPayouts(send)).toBe(0);
    expect(await row()).toMatchObject({ state: "pending", envelope: null, txHash: null });
    expect((await row())?.note).toContain("looked up on chain again");
  });
});
