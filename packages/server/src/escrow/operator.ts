// What the operator does by hand (`namereg escrow parked|release|refund|reconcile`): list what is parked, release
// a parked payout (retry to the same address or pay another, or keep it, with a recorded reason), refund a parked
// payment (XLM that arrived in a way the watcher does not judge), and reconcile the escrow's balance on chain
// against everything the escrow holds or owes. Fee withdrawals are fees.ts.
import { isAccountId, stroopsToXlm } from "@namereg/protocol";
import type { rpc } from "@stellar/stellar-sdk";
import { and, eq, inArray } from "drizzle-orm";
import type { PaymentKind } from "../chain/account-payments.ts";
import { marketPayments, marketPayouts } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { auditChain, type ChainAudit } from "./chain-audit.ts";
import { feeBook } from "./fees.ts";

export interface ParkedItem {
  readonly kind: "payout" | "payment";
  readonly id: string;
  readonly destination: string;
  readonly asset: string;
  readonly amount: bigint;
  readonly reason: string;
  readonly since: Date;
}

export async function listParked(db: Db): Promise<ParkedItem[]> {
  const payouts = await db.select().from(marketPayouts).where(eq(marketPayouts.state, "parked"));
  const payments = await db.select().from(marketPayments).where(eq(marketPayments.state, "parked"));
  return [
    ...payouts.map((p) => ({
      kind: "payout" as const,
      id: p.id,
      destination: p.destination,
      asset: "native",
      amount: p.amount,
      reason: p.parkedReason ?? "",
      since: p.updatedAt,
    })),
    ...payments.map((p) => ({
      kind: "payment" as const,
      id: p.id,
      destination: p.source,
      asset: p.asset,
      amount: p.amount,
      reason: parkedPaymentReason(p),
      since: p.decidedAt ?? p.closedAt,
    })),
  ].sort((a, b) => a.since.getTime() - b.since.getTime());
}

const ARRIVED: Record<Exclude<PaymentKind, "payment">, string> = {
  token_transfer: "a token contract transfer",
  path_payment: "a path payment",
  account_merge: "an account merge",
};

function parkedPaymentReason(p: { asset: string; verdict: string | null }): string {
  if (p.asset !== "native") {
    const what =
      p.verdict !== null && p.verdict in ARRIVED ? `${ARRIVED[p.verdict as keyof typeof ARRIVED]} of ` : "";
    return `received ${what}${p.asset}: only XLM is accepted; return it by hand, then release it`;
  }
  const how =
    p.verdict !== null && p.verdict in ARRIVED ? ARRIVED[p.verdict as keyof typeof ARRIVED] : p.verdict;
  return `XLM received by ${how ?? "an operation the watcher does not judge"}, not a payment operation: refund it (or keep it: release --keep)`;
}

export class ReleaseError extends Error {}

/**
 * What became of a payout that is no longer parked, for the operator who tries it twice: a kept one and a released
 * one share the state `released`, but only the second sent anything.
 */
function settledAs(payout: { id: string; state: string; note: string | null }): string {
  if (payout.state !== "released") return `is ${payout.state}`;
  if (payout.note?.startsWith("kept in the escrow") === true) return `was ${payout.note}`;
  // The note of a release reads "<reason> → <new obligation>".
  return `was released (${payout.note ?? "no reason recorded"})`;
}

/**
 * Releases a parked payout as a new obligation (`<id>:release`) to `to` (default: the same destination), which
 * the running watcher sends; the parked row keeps its envelope and records the reason. With `keep` nothing is
 * sent: the amount stays in the escrow's float by the operator's recorded decision (dust not worth a network
 * fee). A parked non-XLM payment is marked as settled by hand (returned outside the watcher); parked XLM is kept
 * as float only with `keep` (else `refundParked` sends it back).
 */
export async function releaseParked(
  db: Db,
  id: string,
  opts: { to?: string; keep?: boolean; reason: string; now?: Date },
): Promise<{ released: string; newObligation: string | null }> {
  const now = opts.now ?? new Date();
  if (opts.reason.trim() === "") throw new ReleaseError("a reason is required (--reason)");
  if (opts.to !== undefined && !isAccountId(opts.to)) throw new ReleaseError("--to must be a G… account");
  if (opts.to !== undefined && opts.keep === true) throw new ReleaseError("--keep sends nothing: drop --to");
  return db.transaction(async (tx) => {
    const [payout] = await tx.select().from(marketPayouts).where(eq(marketPayouts.id, id));
    if (payout !== undefined) {
      if (payout.state !== "parked") throw new ReleaseError(`payout ${id} ${settledAs(payout)}, not parked`);
      if (opts.keep === true) {
        await tx
          .update(marketPayouts)
          .set({ state: "released", note: `kept in the escrow: ${opts.reason}`, updatedAt: now })
          .where(and(eq(marketPayouts.id, id), eq(marketPayouts.state, "parked")));
        return { released: id, newObligation: null };
      }
      const next = `${id}:release`;
      await tx
        .update(marketPayouts)
        .set({ state: "released", note: `${opts.reason} → ${next}`, updatedAt: now })
        .where(and(eq(marketPayouts.id, id), eq(marketPayouts.state, "parked")));
      await tx.insert(marketPayouts).values({
        id: next,
        paymentId: payout.paymentId,
        purpose: "release",
        destination: opts.to ?? payout.destination,
        amount: payout.amount,
        state: "pending",
        note: opts.reason,
        createdAt: now,
        updatedAt: now,
      });
      return { released: id, newObligation: next };
    }
    const [payment] = await tx.select().from(marketPayments).where(eq(marketPayments.id, id));
    if (payment === undefined) throw new ReleaseError(`nothing parked has id ${id}`);
    if (payment.state !== "parked")
      throw new ReleaseError(
        `payment ${id} is ${payment.state}${payment.verdict === null ? "" : ` (${payment.verdict})`}, not parked`,
      );
    if (opts.to !== undefined)
      throw new ReleaseError(
        payment.asset === "native"
          ? `to pay parked XLM out, refund it: namereg escrow refund ${id} --to … --reason "…"`
          : `${payment.asset} cannot be paid by the escrow: return it by hand`,
      );
    // `release` sends nothing for a payment, so parked XLM (which the escrow can send back itself) leaves parked
    // only by `refund` or by an explicit --keep: an operator who types release meaning "give it back" must not
    // turn the sender's money into float.
    if (payment.asset === "native" && opts.keep !== true)
      throw new ReleaseError(
        `${id} is ${stroopsToXlm(payment.amount)} XLM held for ${payment.source}: send it back with ` +
          `namereg escrow refund ${id} --reason "…", or keep it in the escrow with ` +
          `namereg escrow release ${id} --keep --reason "…"`,
      );
    const verdict =
      opts.keep === true ? `kept in the escrow: ${opts.reason}` : `settled by hand: ${opts.reason}`;
    await tx
      .update(marketPayments)
      .set({ state: "released", verdict, decidedAt: now })
      .where(and(eq(marketPayments.id, id), eq(marketPayments.state, "parked")));
    return { released: id, newObligation: null };
  });
}

/**
 * Refunds a parked XLM payment (one that arrived by a token transfer, a path payment or a merge): in one
 * transaction the payment leaves `parked` and the obligation `<id>:refund` to its sender (or `to`) is written,
 * which the running watcher sends exactly once like any other (envelope and hash stored before sending, the chain
 * asked after a crash). A second call finds nothing parked and changes nothing. The operator's decision stands
 * whatever the amount: no dust rule applies.
 */
export async function refundParked(
  db: Db,
  id: string,
  opts: { to?: string; reason: string; now?: Date },
): Promise<{ refunded: string; obligation: string; destination: string; amount: bigint }> {
  const now = opts.now ?? new Date();
  if (opts.reason.trim() === "") throw new ReleaseError("a reason is required (--reason)");
  if (opts.to !== undefined && !isAccountId(opts.to)) throw new ReleaseError("--to must be a G… account");
  return db.transaction(async (tx) => {
    const [payment] = await tx.select().from(marketPayments).where(eq(marketPayments.id, id));
    if (payment === undefined) {
      const [payout] = await tx
        .select({ state: marketPayouts.state })
        .from(marketPayouts)
        .where(eq(marketPayouts.id, id));
      throw new ReleaseError(
        payout === undefined
          ? `nothing parked has id ${id}`
          : `${id} is a payout: pay it with namereg escrow release ${id}`,
      );
    }
    if (payment.state !== "parked") throw new ReleaseError(`payment ${id} is ${payment.state}, not parked`);
    if (payment.asset !== "native")
      throw new ReleaseError(
        `${payment.asset} cannot be paid by the escrow: return it by hand, then release it`,
      );
    const destination = opts.to ?? payment.source;
    // A token transfer may come from a contract (C…): the escrow pays only accounts.
    if (!isAccountId(destination))
      throw new ReleaseError(`the sender ${destination} is not an account: say where with --to G…`);
    const moved = await tx
      .update(marketPayments)
      .set({ state: "returned", verdict: `refunded by the operator: ${opts.reason}`, decidedAt: now })
      .where(and(eq(marketPayments.id, id), eq(marketPayments.state, "parked")))
      .returning({ id: marketPayments.id });
    if (moved.length === 0) throw new ReleaseError(`payment ${id} was settled meanwhile; nothing done`);
    const obligation = `${id}:refund`;
    await tx
      .insert(marketPayouts)
      .values({
        id: obligation,
        paymentId: id,
        purpose: "refund",
        destination,
        amount: payment.amount,
        state: "pending",
        note: opts.reason,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    return { refunded: id, obligation, destination, amount: payment.amount };
  });
}

export interface Reconciliation {
  readonly balance: bigint;
  readonly deposits: bigint;
  readonly undecided: bigint;
  readonly bonds: bigint;
  readonly owed: bigint;
  readonly parked: bigint;
  /** Fees of every settled sale. */
  readonly feesEarned: bigint;
  /** Fee withdrawals paid, on their way or parked (the latter two are counted in `owed` and `parked`). */
  readonly feesWithdrawn: bigint;
  /** feesEarned − feesWithdrawn: the fees still in the escrow. */
  readonly fees: bigint;
  readonly required: bigint;
  /** balance − required: the operator's float (reserve and network fees); negative is a mismatch. */
  readonly float: bigint;
  /** The escrow's payments on chain held against the obligations (chain-audit.ts). */
  readonly chain: ChainAudit;
  /** The float is not negative, and every payment on chain is explained once. */
  readonly ok: boolean;
}

const sum = (values: readonly (bigint | null)[]) => values.reduce<bigint>((a, v) => a + (v ?? 0n), 0n);

/**
 * The escrow's XLM balance on chain against what it holds for others (funded deposits, bonds, payments not yet
 * judged), what it owes (obligations not yet confirmed paid, parked ones and parked XLM payments) and the fees it
 * still holds (earned − withdrawn, fees.ts). A fee withdrawal moves its amount from the fees to `owed` (or
 * `parked`) when it is written and out of the balance when paid, so the float stays the same throughout. A signed
 * payout already applied on chain is not owed any more, so its hash is looked up rather than trusted from the row.
 * And every payment the escrow key made on chain must be explained by one obligation (chain-audit.ts): the balance
 * alone cannot see a payout the database forgot (a restore), since the float absorbs it.
 */
export async function reconcile(db: Db, server: rpc.Server, escrow: string): Promise<Reconciliation> {
  // The chain's payments first, then the books: see chain-audit.ts.
  const { passphrase } = await server.getNetwork();
  const chain = await auditChain(db, { server, networkPassphrase: passphrase, account: escrow });
  // The fees first and the balance last: whatever the watcher or an operator command does meanwhile is then
  // counted twice (a withdrawal written in between: held and owed; a payout paid in between: owed, and gone from
  // the balance), never missed, so a race can only understate the float.
  const book = await feeBook(db);
  const payments = await db
    .select()
    .from(marketPayments)
    .where(inArray(marketPayments.state, ["funded", "bond", "new", "parked"]));
  const native = payments.filter((p) => p.asset === "native");
  const deposits = sum(native.filter((p) => p.state === "funded").map((p) => p.held));
  const bonds = sum(native.filter((p) => p.state === "bond").map((p) => p.held));
  const undecided = sum(native.filter((p) => p.state === "new").map((p) => p.amount));
  const open = await db
    .select()
    .from(marketPayouts)
    .where(inArray(marketPayouts.state, ["pending", "signed", "parked"]));
  let owed = 0n;
  // XLM parked as it arrived (a token transfer, …) is held for the operator like a parked payout.
  let parked = sum(native.filter((p) => p.state === "parked").map((p) => p.amount));
  for (const payout of open) {
    if (payout.state === "parked") {
      parked += payout.amount;
      continue;
    }
    if (payout.state === "signed" && payout.txHash !== null) {
      const got = await server.getTransaction(payout.txHash);
      if (got.status === "SUCCESS") continue;
    }
    owed += payout.amount;
  }
  const fees = book.available;
  const entry = (await server.getAccountEntry(escrow)) as unknown as { balance: { toString(): string } };
  const balance = BigInt(entry.balance.toString());
  const required = deposits + undecided + bonds + owed + parked + fees;
  const float = balance - required;
  return {
    balance,
    deposits,
    undecided,
    bonds,
    owed,
    parked,
    feesEarned: book.earned,
    feesWithdrawn: book.withdrawn,
    fees,
    required,
    float,
    chain,
    ok: float >= 0n && chain.unexplained.length === 0 && chain.paidTwice.length === 0,
  };
}
