// The marketplace fee (MARKET_FEE_BPS) is kept in the escrow from each sale's proceeds (settlement.ts); this is how
// the operator takes it out (docs/market.md "Fees"). `namereg escrow withdraw-fees` writes one obligation
// `fee:<request id>` (purpose `fee_withdrawal`) that the running watcher signs and sends exactly once like any
// payout (payouts.ts). What is earned, withdrawn and still available is read from the rows alone, so the command,
// `fees` and `reconcile` agree.
import { isAccountId, stroopsToXlm } from "@namereg/protocol";
import type { rpc } from "@stellar/stellar-sdk";
import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { advisoryLockKey } from "../db/index.ts";
import { marketPayouts, marketSales } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { DUST_THRESHOLD } from "./obligations.ts";
import { accountExists } from "./payouts.ts";

/**
 * Prefix of a withdrawal's id and payment id. A parked withdrawal released elsewhere (`<id>:release`, …) keeps
 * the payment id, so the whole chain of one withdrawal is found by it.
 */
export const FEE_PREFIX = "fee:";

/** Held (transaction-scoped) around the check and the insert, so two commands at once cannot both spend it. */
export const FEE_LOCK = "namereg:escrow:fees";

/** Operator-chosen, so re-running the same command finds its own withdrawal instead of making a second one. */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The states in which a withdrawal has taken its amount out of the fees: on its way, paid, or parked. */
const TAKEN = ["pending", "signed", "paid", "parked"] as const;

export class FeeWithdrawalError extends Error {}

export interface FeeBook {
  /** Fees of every settled sale. */
  readonly earned: bigint;
  /** Withdrawals confirmed on chain. */
  readonly paid: bigint;
  /** Withdrawals written or signed, not yet confirmed (counted as owed by reconcile). */
  readonly inFlight: bigint;
  /** Withdrawals parked for the operator (counted as parked by reconcile). */
  readonly parked: bigint;
  /** paid + inFlight + parked. */
  readonly withdrawn: bigint;
  /** earned − withdrawn: what may still be withdrawn, and what reconcile counts as fees held. */
  readonly available: bigint;
}

const sum = (values: readonly bigint[]) => values.reduce((a, v) => a + v, 0n);

/**
 * A withdrawal kept in the escrow by `release --keep` (every row of its chain `released`) takes nothing: its
 * amount is available again.
 */
export async function feeBook(db: Db): Promise<FeeBook> {
  const earned = sum((await db.select({ fee: marketSales.fee }).from(marketSales)).map((s) => s.fee));
  const rows = await db
    .select({ state: marketPayouts.state, amount: marketPayouts.amount })
    .from(marketPayouts)
    .where(and(like(marketPayouts.paymentId, `${FEE_PREFIX}%`), inArray(marketPayouts.state, [...TAKEN])));
  const of = (...states: string[]) => sum(rows.filter((r) => states.includes(r.state)).map((r) => r.amount));
  const paid = of("paid");
  const inFlight = of("pending", "signed");
  const parked = of("parked");
  const withdrawn = paid + inFlight + parked;
  return { earned, paid, inFlight, parked, withdrawn, available: earned - withdrawn };
}

export type FeeWithdrawalRow = typeof marketPayouts.$inferSelect;

/** Every row of every withdrawal (releases of parked ones included), oldest first. */
export async function feeWithdrawals(db: Db): Promise<FeeWithdrawalRow[]> {
  return db
    .select()
    .from(marketPayouts)
    .where(like(marketPayouts.paymentId, `${FEE_PREFIX}%`))
    .orderBy(asc(marketPayouts.createdAt), asc(marketPayouts.id));
}

export interface WithdrawRequest {
  /** The idempotency key: the same id is the same withdrawal, however often the command runs. */
  readonly requestId: string;
  readonly to: string;
  /** Stroops, or everything available when the lock is taken. */
  readonly amount: bigint | "all";
  readonly reason: string;
  readonly now?: Date;
}

export interface WithdrawResult {
  readonly id: string;
  readonly destination: string;
  readonly amount: bigint;
  /** False when the id was already recorded (a re-run): nothing new was written. */
  readonly created: boolean;
  readonly state: string;
  /** Available after this withdrawal. */
  readonly available: bigint;
}

const xlm = (stroops: bigint) => `${stroopsToXlm(stroops)} XLM`;

/**
 * Writes the pending obligation `fee:<request id>` for the running watcher to send, after checking it: an existing
 * account other than the escrow, at least 1 XLM (the dust threshold), at most what is available. The check and
 * the insert happen under `FEE_LOCK` in one transaction, so two commands at once cannot both spend the same fees.
 * A request id already recorded with the same destination (and amount, unless `all`) answers what it recorded;
 * with another destination or amount it is refused.
 */
export async function withdrawFees(
  db: Db,
  server: rpc.Server,
  escrow: string,
  req: WithdrawRequest,
): Promise<WithdrawResult> {
  const now = req.now ?? new Date();
  if (!REQUEST_ID.test(req.requestId))
    throw new FeeWithdrawalError(
      "--id must be 1–64 letters, digits, '.', '_' or '-' (starting with a letter or digit), naming this withdrawal",
    );
  if (req.reason.trim() === "") throw new FeeWithdrawalError("a reason is required (--reason)");
  if (!isAccountId(req.to)) throw new FeeWithdrawalError("--to must be a G… account");
  if (req.to === escrow) throw new FeeWithdrawalError("--to is the escrow itself: nothing would leave it");
  if (req.amount !== "all" && req.amount < DUST_THRESHOLD)
    throw new FeeWithdrawalError(
      `${xlm(req.amount)} is below 1 XLM (the dust threshold): the escrow sends nothing smaller`,
    );
  // Checked before anything is written: a payment to a missing account is refused by the chain (or, at 1 XLM and
  // more, would create it with the operator's fees), and a typo must not become a parked obligation.
  if (!(await accountExists(server, req.to)))
    throw new FeeWithdrawalError(
      `${req.to} does not exist on chain: fees are paid only to an existing account`,
    );
  const id = `${FEE_PREFIX}${req.requestId}`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLockKey(FEE_LOCK).toString()}::bigint)`);
    const [existing] = await tx.select().from(marketPayouts).where(eq(marketPayouts.id, id));
    if (existing !== undefined) {
      const same =
        existing.destination === req.to && (req.amount === "all" || existing.amount === req.amount);
      if (!same)
        throw new FeeWithdrawalError(
          `${id} already records ${xlm(existing.amount)} → ${existing.destination} (${existing.state}): ` +
            "a different withdrawal needs another --id",
        );
      const book = await feeBook(tx);
      return {
        id,
        destination: existing.destination,
        amount: existing.amount,
        created: false,
        state: existing.state,
        available: book.available,
      };
    }
    const book = await feeBook(tx);
    const amount = req.amount === "all" ? book.available : req.amount;
    const account = `earned ${xlm(book.earned)}, withdrawn ${xlm(book.withdrawn)}`;
    if (req.amount === "all" && amount < DUST_THRESHOLD)
      throw new FeeWithdrawalError(
        `only ${xlm(amount)} available (${account}): below 1 XLM, nothing to send`,
      );
    if (amount > book.available)
      throw new FeeWithdrawalError(
        `${xlm(amount)} asked, only ${xlm(book.available)} available (${account})`,
      );
    await tx.insert(marketPayouts).values({
      id,
      paymentId: id,
      purpose: "fee_withdrawal",
      destination: req.to,
      amount,
      state: "pending",
      note: req.reason,
      createdAt: now,
      updatedAt: now,
    });
    return {
      id,
      destination: req.to,
      amount,
      created: true,
      state: "pending",
      available: book.available - amount,
    };
  });
}
