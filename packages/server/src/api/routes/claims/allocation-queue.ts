// The claim queue of GET /v1/allocations (docs/api.md "GET /v1/allocations"), drawn from the allocator's mirror: the most
// recent 200 claims, grouped into pending (announced window, no live objection), objected (at least one live
// objection) and awarded. Withdrawn, rejected and expired claims are hidden, and so are claims whose fee
// receipt is `Stuck` (the operator took them out of the queue; the contract keeps their state). The countdown
// (`deadline`, `remainingSeconds`, `elapsed`) is computed when the answer is made, by the API's clock.
import { nameNode, parseName, stroopsToXlm } from "@namereg/protocol";
import { and, desc, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { claimObjections, claims, names, primaryNames } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** docs/api.md "GET /v1/allocations": the queue is drawn from the most recent 200 claims. */
export const QUEUE_SOURCE = 200;

export interface QueueEntry {
  id: string;
  namespace: string;
  claimant: string;
  claimantAccount: string;
  state: "announced" | "objected" | "awarded";
  basis: string[];
  claimantResponse: string | null;
  evidence: { label: string; url: string }[];
  announcedLedger: number;
  deadline: string;
  remainingSeconds: number;
  elapsed: boolean;
  awardedAt: string | null;
  objections: { objector: string; basis: string[]; bondXlm: string }[];
}

export interface AllocationQueue {
  pending: QueueEntry[];
  objected: QueueEntry[];
  awarded: QueueEntry[];
}

const iso = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

export async function readAllocationQueue(db: Db, nowSeconds: number): Promise<AllocationQueue> {
  const recent = await db.select().from(claims).orderBy(desc(claims.id)).limit(QUEUE_SOURCE);
  const shown = recent.filter(
    (c) =>
      (c.state === "announced" || c.state === "objected" || c.state === "awarded") &&
      c.feeOutcome !== "Stuck",
  );
  const ids = shown.map((c) => c.id);
  const accounts = [...new Set(shown.map((c) => c.claimant))];
  const [live, primaries] = await Promise.all([
    ids.length === 0
      ? []
      : db
          .select()
          .from(claimObjections)
          .where(and(inArray(claimObjections.claimId, ids), eq(claimObjections.live, true)))
          .orderBy(claimObjections.claimId, claimObjections.filedLedger, claimObjections.objector),
    accounts.length === 0
      ? []
      : db.select().from(primaryNames).where(inArray(primaryNames.address, accounts)),
  ]);
  const objectionsOf = new Map<bigint, QueueEntry["objections"]>();
  for (const o of live) {
    const list = objectionsOf.get(o.claimId) ?? [];
    list.push({ objector: o.objector, basis: o.basis, bondXlm: stroopsToXlm(o.bond) });
    objectionsOf.set(o.claimId, list);
  }
  const nameOf = await heldPrimaries(db, primaries, nowSeconds);

  const queue: AllocationQueue = { pending: [], objected: [], awarded: [] };
  for (const c of shown) {
    const objections = objectionsOf.get(c.id) ?? [];
    const state = c.state === "awarded" ? "awarded" : objections.length > 0 ? "objected" : "announced";
    const remaining = Math.max(0, Number(c.deadline) - nowSeconds);
    const entry: QueueEntry = {
      id: c.id.toString(),
      namespace: c.label,
      // Chosen: the claimant's primary name when it has one (set, and still held: active and unexpired), else its
      // account (the specification types it "(name)").
      claimant: nameOf.get(c.claimant) ?? c.claimant,
      claimantAccount: c.claimant,
      state,
      basis: c.basis,
      claimantResponse: c.response,
      evidence: c.evidence,
      announcedLedger: c.announcedLedger,
      deadline: iso(c.deadline),
      remainingSeconds: remaining,
      elapsed: remaining === 0,
      awardedAt: c.awardedAt === null ? null : iso(c.awardedAt),
      objections,
    };
    (state === "awarded" ? queue.awarded : state === "objected" ? queue.objected : queue.pending).push(entry);
  }
  return queue;
}

/** address → its primary name, for the primaries whose names the address still holds, active and unexpired. */
async function heldPrimaries(
  db: Db,
  primaries: readonly { address: string; name: string }[],
  nowSeconds: number,
): Promise<Map<string, string>> {
  const wanted = primaries.flatMap(({ address, name }) => {
    const parsed = parseName(name);
    return parsed?.kind === "name" ? [{ address, name, node: nameNode(parsed.label, parsed.namespace) }] : [];
  });
  if (wanted.length === 0) return new Map();
  const held = await db
    .select({ node: names.node, holder: names.holder })
    .from(names)
    .where(
      and(
        inArray(
          names.node,
          wanted.map((w) => w.node),
        ),
        eq(names.active, true),
        or(isNull(names.expiresAt), gt(names.expiresAt, BigInt(nowSeconds))),
      ),
    );
  const holderOf = new Map(held.map((row) => [row.node, row.holder]));
  return new Map(wanted.filter((w) => holderOf.get(w.node) === w.address).map((w) => [w.address, w.name]));
}
