// Which chain the mirror holds (docs/operations.md "A different or reset chain"). A database filled from one chain
// and then pointed at another — another network, or a test network that was reset (Stellar's testnet is, every
// few months) — would mix both silently: names owned by whoever the old chain said, a ledger far past the new
// head. The writer records the network passphrase and a ledger it has seen with that ledger's hash, and refuses,
// at start and while following, a chain whose passphrase differs, whose head is below the mirror's, or whose
// ledger at a known sequence has another hash. The refusal is stored (`chain_identity.refused_reason`) so that
// /v1/status says why, and re-judged at every start.
import { eq } from "drizzle-orm";
import type { LatestLedger, RpcClient } from "../chain/rpc-client.ts";
import { chainIdentity, indexerState } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

/**
 * Ledgers the RPC's head may trail the mirror before it counts as a chain that went backwards: a provider behind
 * a load balancer can answer from a node a ledger or two behind the one that served the previous call.
 */
export const HEAD_BEHIND_TOLERANCE = 10;

/** How often, while following, the known ledger's hash is checked again and the mark moved to the head. */
export const CHECK_EVERY_MS = 30_000;

export const WAY_FORWARD =
  "To mirror this chain, give namereg an empty database (a new DATABASE_URL, or drop and create this one) and " +
  "start again; to keep this mirror, point RPC_URL and NETWORK_PASSPHRASE back at its chain " +
  '(docs/operations.md "A different or reset chain").';

/** The writer refuses the chain it is pointed at; the message says why and what to do. */
export class ChainIdentityError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`the indexer stopped: ${reason}. ${WAY_FORWARD}`);
    this.name = "ChainIdentityError";
    this.reason = reason;
  }
}

export interface ChainIdentityDeps {
  readonly db: Db;
  readonly rpc: Pick<RpcClient, "getNetwork" | "getLatestLedger" | "getLedger">;
  /** NETWORK_PASSPHRASE. */
  readonly networkPassphrase: string;
  readonly now?: () => Date;
  readonly checkEveryMs?: number;
}

/** Follows the chain's identity for one writer: `observe` every head it reads. */
export interface ChainIdentityWatch {
  observe(head: LatestLedger): Promise<void>;
}

/** Checks the chain when the writer starts; throws ChainIdentityError (recorded) when it is not this mirror's. */
export async function verifyChainAtStart(d: ChainIdentityDeps): Promise<ChainIdentityWatch> {
  const now = d.now ?? (() => new Date());
  const network = await d.rpc.getNetwork();
  if (network.passphrase !== d.networkPassphrase)
    await refuse(
      d.db,
      now(),
      `RPC_URL serves the network "${network.passphrase}", not NETWORK_PASSPHRASE "${d.networkPassphrase}"`,
    );
  const [row] = await d.db.select().from(chainIdentity).where(eq(chainIdentity.id, 1));
  if (row?.networkPassphrase != null && row.networkPassphrase !== network.passphrase)
    await refuse(
      d.db,
      now(),
      `this database mirrors the network "${row.networkPassphrase}", but RPC_URL serves "${network.passphrase}"`,
    );
  const head = await d.rpc.getLatestLedger();
  const [state] = await d.db.select({ processed: indexerState.processedLedger }).from(indexerState);
  const processed = state?.processed ?? null;
  const mark =
    row?.ledger != null && row.ledgerHash !== null ? { ledger: row.ledger, hash: row.ledgerHash } : null;
  await checkHead(d.db, now(), head.sequence, Math.max(processed ?? 0, mark?.ledger ?? 0));
  if (mark !== null) await checkHash(d, now(), mark);
  await recordMark(d.db, now(), network.passphrase, head);
  const every = d.checkEveryMs ?? CHECK_EVERY_MS;
  let known = { ledger: head.sequence, hash: head.id, at: Date.now() };
  let highest = Math.max(processed ?? 0, head.sequence);
  return {
    async observe(next) {
      await checkHead(d.db, now(), next.sequence, highest);
      highest = Math.max(highest, next.sequence);
      if (Date.now() - known.at < every) return;
      await checkHash(d, now(), known);
      await recordMark(d.db, now(), network.passphrase, next);
      known = { ledger: next.sequence, hash: next.id, at: Date.now() };
    },
  };
}

async function checkHead(db: Db, at: Date, head: number, mirror: number): Promise<void> {
  if (head + HEAD_BEHIND_TOLERANCE >= mirror) return;
  await refuse(
    db,
    at,
    `the chain went backwards: this mirror has seen ledger ${mirror}, but the RPC's latest ledger is ${head} ` +
      "(a reset network, or another chain with the same passphrase)",
  );
}

/** The RPC's hash of the known ledger must be the one recorded; out of its retention, it cannot tell. */
async function checkHash(
  d: ChainIdentityDeps,
  at: Date,
  mark: { ledger: number; hash: string },
): Promise<void> {
  let page: Awaited<ReturnType<RpcClient["getLedger"]>>;
  try {
    page = await d.rpc.getLedger(mark.ledger);
  } catch {
    return; // outside the RPC's retention (or a passing failure): the head check still stands
  }
  const seen = page.ledgers.find((l) => l.sequence === mark.ledger);
  if (seen === undefined || seen.hash === mark.hash) return;
  await refuse(
    d.db,
    at,
    `ledger ${mark.ledger} has the hash ${seen.hash} on the RPC's chain, but ${mark.hash} in this mirror: ` +
      "another chain (a reset network?)",
  );
}

async function recordMark(db: Db, at: Date, passphrase: string, head: LatestLedger): Promise<void> {
  const values = {
    networkPassphrase: passphrase,
    ledger: head.sequence,
    ledgerHash: head.id,
    checkedAt: at,
    refusedReason: null,
    refusedAt: null,
  };
  await db
    .insert(chainIdentity)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: chainIdentity.id, set: values });
}

async function refuse(db: Db, at: Date, reason: string): Promise<never> {
  const values = { refusedReason: reason, refusedAt: at };
  await db
    .insert(chainIdentity)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: chainIdentity.id, set: values });
  throw new ChainIdentityError(reason);
}

/** Whether the database holds a mirror already (namereg dev refuses one: its devnet is new every run). */
export async function mirrorOf(
  db: Db,
): Promise<{ processedLedger: number | null; passphrase: string | null } | null> {
  const [state] = await db.select({ processed: indexerState.processedLedger }).from(indexerState);
  const [row] = await db.select({ passphrase: chainIdentity.networkPassphrase }).from(chainIdentity);
  if ((state?.processed ?? null) === null && (row?.passphrase ?? null) === null) return null;
  return { processedLedger: state?.processed ?? null, passphrase: row?.passphrase ?? null };
}
