// Sends the escrow's obligations exactly once. An obligation is signed once: its envelope and hash are stored
// before the envelope is sent, and whenever a stored envelope's fate is unknown (after a crash, a timeout) the
// chain is asked (`getTransaction(hash)`) before the same envelope is re-sent. A second envelope is never built
// for an obligation. One envelope is in flight at a time, so the escrow's sequence numbers cannot cross. The
// send loop (ask by hash, send, poll within a wall-time budget) is chain/send-by-hash.ts, shared with the relays.
// Whatever cannot be delivered is parked for the operator, never dropped.

import { stroopsToXlm } from "@namereg/protocol";
import {
  Account,
  Asset,
  type FeeBumpTransaction,
  type Keypair,
  Memo,
  Operation,
  rpc,
  TimeoutInfinite,
  type Transaction,
  TransactionBuilder,
  type xdr,
} from "@stellar/stellar-sdk";
import { and, asc, eq } from "drizzle-orm";
import { type FinalResponse, hashOf, sendByHash } from "../chain/send-by-hash.ts";
import { marketPayouts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { payoutMemoHash } from "./obligations.ts";
import {
  conflictingPayout,
  type EscrowTransaction,
  escrowSequence,
  payoutMismatch,
  payoutOnChain,
} from "./paid-on-chain.ts";

/** Two base reserves (0.5 XLM each): the least a payment can create an account with. */
export const MIN_ACCOUNT_BALANCE = 10_000_000n;

/** Network fee the escrow offers per payout (stroops); charged to the escrow's own float. */
export const PAYOUT_FEE = "100";

const DEFAULT_ATTEMPTS = 20;
/** Twenty polls a second apart, with room for slow answers; past it the envelope waits for the next pass. */
const DEFAULT_BUDGET_MS = 30_000;

export interface PayoutSender {
  readonly db: Db;
  readonly server: rpc.Server;
  readonly networkPassphrase: string;
  readonly escrow: Keypair;
  readonly now: () => Date;
  /** Waits between getTransaction polls (a devnet test closes a ledger here). */
  readonly settle: () => Promise<void>;
  /** getTransaction polls per send before leaving the envelope for the next pass (default 20). */
  readonly attempts?: number;
  /** Wall time those polls may take in all, in ms (default 30 s): a poll the RPC holds open cannot stretch it. */
  readonly budgetMs?: number;
  /**
   * Reads the escrow's new transactions from the chain into `market_escrow_transactions` (the watcher's ingest)
   * and returns the ledger through which they are all stored: nothing new is signed before it reaches the ledger
   * the escrow's sequence number was read at (paid-on-chain.ts).
   */
  readonly catchUp: () => Promise<number>;
  /** Test hook: called at the named points of a send, to crash there. */
  readonly checkpoint?: (point: "signed" | "sent") => Promise<void>;
  /** Told of every obligation that was paid or parked (the watcher process logs them at info / warn). */
  readonly onOutcome?: (outcome: PayoutOutcome) => void;
}

export interface PayoutOutcome {
  readonly id: string;
  readonly purpose: string;
  readonly destination: string;
  /** Stroops. */
  readonly amount: bigint;
  readonly txHash: string | null;
  readonly state: "paid" | "parked";
  readonly ledger?: number;
  readonly reason?: string;
}

type Payout = typeof marketPayouts.$inferSelect;

async function update(db: Db, payout: Payout, from: string, set: Partial<typeof marketPayouts.$inferInsert>) {
  const rows = await db
    .update(marketPayouts)
    .set(set)
    .where(and(eq(marketPayouts.id, payout.id), eq(marketPayouts.state, from)))
    .returning({ id: marketPayouts.id });
  return rows.length === 1;
}

async function park(s: PayoutSender, payout: Payout, from: string, reason: string): Promise<void> {
  if (await update(s.db, payout, from, { state: "parked", parkedReason: reason, updatedAt: s.now() }))
    s.onOutcome?.({ ...outcomeOf(payout), state: "parked", reason });
}

function outcomeOf(p: Payout): Omit<PayoutOutcome, "state"> {
  return { id: p.id, purpose: p.purpose, destination: p.destination, amount: p.amount, txHash: p.txHash };
}

export async function accountExists(server: rpc.Server, account: string): Promise<boolean> {
  try {
    await server.getAccount(account);
    return true;
  } catch (err) {
    if (err instanceof Error && /not found/i.test(err.message)) return false;
    throw err;
  }
}

function txCode(result: xdr.TransactionResult | undefined): string {
  if (result === undefined) return "unknown";
  const inner = result.result;
  const ops = inner.type === "txFailed" ? inner.results : [];
  const opCodes = ops.map((op) =>
    op.type === "opInner" ? (Object.values(op.tr)[0] as { type?: string })?.type : op.type,
  );
  return [inner.type, ...opCodes.filter((c) => c !== undefined)].join(":");
}

/** Sends everything owed; returns the number of obligations that reached a final state in this call. */
export async function sendPayouts(s: PayoutSender): Promise<number> {
  let finished = 0;
  // First the envelopes already signed: their fate decides the escrow's sequence.
  for (const payout of await s.db
    .select()
    .from(marketPayouts)
    .where(eq(marketPayouts.state, "signed"))
    .orderBy(asc(marketPayouts.updatedAt))) {
    const outcome = await deliver(s, payout);
    if (outcome === "unknown") return finished;
    finished++;
  }
  for (;;) {
    const [payout] = await s.db
      .select()
      .from(marketPayouts)
      .where(eq(marketPayouts.state, "pending"))
      .orderBy(asc(marketPayouts.createdAt), asc(marketPayouts.id))
      .limit(1);
    if (payout === undefined) return finished;
    const signed = await sign(s, payout);
    if (signed === "wait") return finished;
    if (signed === null) {
      finished++;
      continue;
    }
    await s.checkpoint?.("signed");
    const outcome = await deliver(s, signed);
    if (outcome === "unknown") return finished;
    finished++;
  }
}

/**
 * Builds and stores the obligation's one envelope; null when it was found paid on chain or parked instead; "wait"
 * when the escrow's transactions are not read far enough to tell (the next pass tries again).
 */
async function sign(s: PayoutSender, payout: Payout): Promise<Payout | null | "wait"> {
  // The chain first (paid-on-chain.ts): the sequence number, then the escrow's transactions up to where it was read.
  const source = await escrowSequence(s.server, s.escrow.publicKey());
  if ((await s.catchUp()) < source.ledger) return "wait";
  const found = await payoutOnChain(s.db, payout.id);
  if (found !== null) return foundOnChain(s, payout, found);
  const conflict = await conflictingPayout(s.db, payout);
  if (conflict !== null) {
    await park(
      s,
      payout,
      "pending",
      `the chain shows this payment already paid out as ${conflict.obligation} (${conflict.tx.txHash}): ` +
        "the database judged it otherwise (restored from before a listing or an intent?); decide by hand",
    );
    return null;
  }
  const destinationExists = await accountExists(s.server, payout.destination);
  if (!destinationExists && payout.amount < MIN_ACCOUNT_BALANCE) {
    await park(
      s,
      payout,
      "pending",
      `destination account does not exist and ${stroopsToXlm(payout.amount)} XLM cannot create it`,
    );
    return null;
  }
  const op = destinationExists
    ? Operation.payment({
        destination: payout.destination,
        asset: Asset.native(),
        amount: stroopsToXlm(payout.amount),
      })
    : Operation.createAccount({
        destination: payout.destination,
        startingBalance: stroopsToXlm(payout.amount),
      });
  // No time bound: the stored envelope stays valid until its sequence number is used, so re-sending it after a
  // crash is always possible and a second envelope is never needed.
  const tx = new TransactionBuilder(new Account(s.escrow.publicKey(), source.sequence), {
    fee: PAYOUT_FEE,
    networkPassphrase: s.networkPassphrase,
  })
    .addOperation(op)
    .addMemo(Memo.hash(payoutMemoHash(payout.id)))
    .setTimeout(TimeoutInfinite)
    .build();
  tx.sign(s.escrow);
  const envelope = tx.toXDR();
  const txHash = Buffer.from(tx.hash()).toString("hex");
  const stored = await update(s.db, payout, "pending", {
    state: "signed",
    envelope,
    txHash,
    updatedAt: s.now(),
  });
  if (!stored) return null;
  return { ...payout, state: "signed", envelope, txHash };
}

/** Settles one signed envelope: paid, parked, or unknown (still in flight; the next pass asks again). */
async function deliver(s: PayoutSender, payout: Payout): Promise<"paid" | "parked" | "unknown"> {
  const { envelope, txHash } = payout;
  if (envelope === null || txHash === null) throw new Error(`signed payout ${payout.id} has no envelope`);
  const tx = TransactionBuilder.fromXDR(envelope, s.networkPassphrase);
  if (hashOf(tx) !== txHash)
    throw new Error(`signed payout ${payout.id}: its envelope does not hash to ${txHash}`);
  const checkpoint = s.checkpoint;
  // The chain is asked about the stored hash before the stored envelope is (re-)sent; an unanswered look-up or
  // send throws, and the next pass asks again.
  const sent = await sendByHash(s.server, tx, {
    attempts: s.attempts ?? DEFAULT_ATTEMPTS,
    budgetMs: s.budgetMs ?? DEFAULT_BUDGET_MS,
    wait: s.settle,
    ...(checkpoint === undefined ? {} : { afterSend: () => checkpoint("sent") }),
  });
  switch (sent.status) {
    case "final":
      return record(s, payout, finalOf(sent.response));
    case "refused": {
      const code = txCode(sent.response.errorResult);
      // Refused before reaching a ledger. Once the escrow's sequence number has passed the envelope's, it can never
      // apply: another transaction took its number — an envelope of this obligation signed before a restore and
      // still queued, or this one applied where the look-up by hash did not see it. The obligation goes back to
      // pending, and the look-up before signing (by memo, on chain) finds it paid or signs it again.
      if (BigInt((await escrowSequence(s.server, s.escrow.publicKey())).sequence) >= BigInt(sequenceOf(tx))) {
        await update(s.db, payout, "signed", {
          state: "pending",
          envelope: null,
          txHash: null,
          note: `envelope ${txHash} refused (${code}) after its sequence number was used; looked up on chain again`,
          updatedAt: s.now(),
        });
        return "unknown";
      }
      // Refused for what the envelope is (a bad signature, too little balance): the operator decides.
      await park(s, payout, "signed", `refused by the network: ${code}`);
      return "parked";
    }
    case "try_again_later":
    case "pending":
      return "unknown";
  }
}

type Final = { ok: true; ledger: number } | { ok: false; ledger: number; code: string };

function finalOf(got: FinalResponse): Final {
  if (got.status === rpc.Api.GetTransactionStatus.SUCCESS) return { ok: true, ledger: got.ledger };
  return { ok: false, ledger: got.ledger, code: txCode(got.resultXdr) };
}

async function record(s: PayoutSender, payout: Payout, outcome: Final): Promise<"paid" | "parked"> {
  if (outcome.ok) {
    if (
      await update(s.db, payout, "signed", { state: "paid", paidLedger: outcome.ledger, updatedAt: s.now() })
    )
      s.onOutcome?.({ ...outcomeOf(payout), state: "paid", ledger: outcome.ledger });
    return "paid";
  }
  await park(s, payout, "signed", `failed on chain in ledger ${outcome.ledger}: ${outcome.code}`);
  return "parked";
}

/** Records the obligation paid by the escrow transaction found on chain with its memo (or parked, if that failed). */
async function foundOnChain(s: PayoutSender, payout: Payout, found: EscrowTransaction): Promise<null> {
  if (!found.successful) {
    await park(
      s,
      payout,
      "pending",
      `failed on chain in ledger ${found.ledger} (${found.txHash}, found by its memo)`,
    );
    return null;
  }
  const mismatch = payoutMismatch(found, payout);
  await update(s.db, payout, "pending", {
    state: "paid",
    envelope: found.envelope,
    txHash: found.txHash,
    paidLedger: found.ledger,
    note: `found paid on chain by its memo${mismatch === null ? "" : `: ${mismatch}`}`,
    updatedAt: s.now(),
  });
  return null;
}

const sequenceOf = (tx: Transaction | FeeBumpTransaction): string =>
  "innerTransaction" in tx ? tx.innerTransaction.sequence : tx.sequence;
