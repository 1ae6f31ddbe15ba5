// What the operator does by hand (`namereg escrow parked|release|reconcile`): list what is parked, release a
// parked payout (retry to the same address or pay another, with a recorded reason), and reconcile the escrow's
// balance on chain against everything the escrow holds or owes.
import { isAccountId } from "@namereg/protocol";
import type { rpc } from "@stellar/stellar-sdk";
import { and, eq, inArray } from "drizzle-orm";
import { marketPayments, marketPayouts, marketSales } from "../../db/tables.ts";
import type { Db } from "../../db/types.ts";

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
      reason: `received ${p.asset}: only XLM is accepted; return it by hand, then release it`,
      since: p.decidedAt ?? p.closedAt,
    })),
  ].sort((a, b) => a.since.getTime() - b.since.getTime());
}

export class ReleaseError extends Error {}

/**
 * Releases a parked payout as a new obligation (`<id>:release`) to `to` (default: the same destination), which
 * the running watcher sends; the parked row keeps its envelope and records the reason. A parked non-XLM payment
 * can only be marked as returned by hand.
 */
export async function releaseParked(
  db: Db,
  id: string,
  opts: { to?: string; reason: string; now?: Date },
): Promise<{ released: string; newObligation: string | null }> {
  const now = opts.now ?? new Date();
  if (opts.reason.trim() === "") throw new ReleaseError("a reason is required (--reason)");
  if (opts.to !== undefined && !isAccountId(opts.to)) throw new ReleaseError("--to must be a G… account");
  return db.transaction(async (tx) => {
    const [payout] = await tx.select().from(marketPayouts).where(eq(marketPayouts.id, id));
    if (payout !== undefined) {
      if (payout.state !== "parked") throw new ReleaseError(`payout ${id} is ${payout.state}, not parked`);
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
    if (payment === undefined || payment.state !== "parked")
      throw new ReleaseError(`nothing parked has id ${id}`);
    if (opts.to !== undefined)
      throw new ReleaseError(`${payment.asset} cannot be paid by the escrow: return it by hand`);
    await tx
      .update(marketPayments)
      .set({ state: "released", verdict: `returned by hand: ${opts.reason}`, decidedAt: now })
      .where(and(eq(marketPayments.id, id), eq(marketPayments.state, "parked")));
    return { released: id, newObligation: null };
  });
}

export interface Reconciliation {
  readonly balance: bigint;
  readonly deposits: bigint;
  readonly undecided: bigint;
  readonly bonds: bigint;
  readonly owed: bigint;
  readonly parked: bigint;
  readonly fees: bigint;
  readonly required: bigint;
  /** balance − required: the operator's float (reserve and network fees); negative is a mismatch. */
  readonly float: bigint;
  readonly ok: boolean;
}

const sum = (values: readonly (bigint | null)[]) => values.reduce<bigint>((a, v) => a + (v ?? 0n), 0n);

/**
 * The escrow's XLM balance on chain against what it holds for others (funded deposits, bonds, payments not yet
 * judged), what it owes (obligations not yet confirmed paid, parked ones) and the fees earned. A signed payout
 * already applied on chain is not owed any more, so its hash is looked up rather than trusted from the row.
 */
export async function reconcile(db: Db, server: rpc.Server, escrow: string): Promise<Reconciliation> {
  const entry = (await server.getAccountEntry(escrow)) as unknown as { balance: { toString(): string } };
  const balance = BigInt(entry.balance.toString());
  const payments = await db
    .select()
    .from(marketPayments)
    .where(inArray(marketPayments.state, ["funded", "bond", "new"]));
  const native = payments.filter((p) => p.asset === "native");
  const deposits = sum(native.filter((p) => p.state === "funded").map((p) => p.held));
  const bonds = sum(native.filter((p) => p.state === "bond").map((p) => p.held));
  const undecided = sum(native.filter((p) => p.state === "new").map((p) => p.amount));
  const open = await db
    .select()
    .from(marketPayouts)
    .where(inArray(marketPayouts.state, ["pending", "signed", "parked"]));
  let owed = 0n;
  let parked = 0n;
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
  const fees = sum((await db.select({ fee: marketSales.fee }).from(marketSales)).map((s) => s.fee));
  const required = deposits + undecided + bonds + owed + parked + fees;
  const float = balance - required;
  return { balance, deposits, undecided, bonds, owed, parked, fees, required, float, ok: float >= 0n };
}
