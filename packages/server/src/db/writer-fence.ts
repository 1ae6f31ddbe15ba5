// The writer epoch (see `writerFence` in tables.ts). An advisory lock alone cannot stop a writer whose lock
// connection died while its pool connections live on: it may commit for seconds before it notices. The epoch
// makes such a commit fail inside its own transaction instead of landing next to the successor's.
import { eq, sql } from "drizzle-orm";
import { hasSqlState } from "./sql-state.ts";
import { writerFence } from "./tables.ts";
import type { Db } from "./types.ts";

/** A batch was about to commit on behalf of a writer that has been replaced. */
export class FencedError extends Error {
  constructor(mine: number, current: number | null) {
    super(
      `writer epoch ${mine} was superseded by ${current ?? "none"}; this process is no longer the writer`,
    );
    this.name = "FencedError";
  }
}

/** How long one try at the epoch row waits before the stalled holders are looked for again. */
const EPOCH_WAIT_STEP_MS = 1000;

/**
 * Call once the writer lock is held: starts a new epoch, waiting for the previous writer's batches in flight.
 * With `stallTimeoutMs` (PostgreSQL), a batch that has waited on its own client that long does not hold the
 * hand-over up: its writer is frozen or cut off, and its session is ended (see endStalledBatches).
 */
export async function takeWriterEpoch(db: Db, options: { stallTimeoutMs?: number } = {}): Promise<number> {
  const stall = options.stallTimeoutMs;
  if (stall === undefined) return bumpEpoch(db);
  for (;;) {
    await endStalledBatches(db, stall);
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('lock_timeout', ${`${EPOCH_WAIT_STEP_MS}ms`}, true)`);
        return bumpEpoch(tx);
      });
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
    }
  }
}

async function bumpEpoch(db: Db): Promise<number> {
  const [row] = await db
    .insert(writerFence)
    .values({ id: 1, epoch: 1 })
    .onConflictDoUpdate({
      target: writerFence.id,
      set: { epoch: sql`${writerFence.epoch} + 1`, takenAt: sql`now()` },
    })
    .returning({ epoch: writerFence.epoch });
  if (row === undefined) throw new Error("could not take a writer epoch");
  return row.epoch;
}

/**
 * Ends the sessions whose transactions hold the fence row while waiting on their client for `stallMs` or more:
 * idle in a transaction, or in the middle of a COPY whose data stopped coming. A frozen writer leaves its batch in
 * one of these states, and a COPY waiting for data ignores idle_in_transaction_session_timeout and
 * statement_timeout alike, so only ending the session frees the row. Called by the lock holder only, so what it
 * ends belongs to a deposed writer (or a tool that stalled as long): that batch rolls back and is fetched again.
 * Ending another role's session needs its privileges; without them the hand-over waits as before.
 */
async function endStalledBatches(db: Db, stallMs: number): Promise<void> {
  await db
    .execute(sql`
      select pg_terminate_backend(a.pid)
      from pg_stat_activity a
      where a.pid <> pg_backend_pid()
        and a.datname = current_database()
        and (a.state like 'idle in transaction%' or (a.state = 'active' and a.wait_event = 'ClientRead'))
        and a.state_change < now() - make_interval(secs => ${stallMs / 1000})
        and exists (
          select 1 from pg_locks l
          where l.pid = a.pid and l.granted and l.relation = 'writer_fence'::regclass
            and l.mode in ('RowShareLock', 'RowExclusiveLock')
        )`)
    .catch(() => undefined);
}

/** lock_not_available. */
const isLockTimeout = (error: unknown): boolean => hasSqlState(error, "55P03");

/**
 * Proves inside `tx` that `epoch` is still current; the shared row lock keeps a successor waiting until commit.
 * With `stallTimeoutMs`, the transaction is also ended by the server once it sits idle that long
 * (`idle_in_transaction_session_timeout`): a frozen writer's batch does not keep its row locks.
 */
export async function assertWriter(tx: Db, epoch: number, stallTimeoutMs?: number): Promise<void> {
  if (stallTimeoutMs !== undefined) {
    await tx.execute(
      sql`select set_config('idle_in_transaction_session_timeout', ${`${stallTimeoutMs}ms`}, true)`,
    );
  }
  const [row] = await tx
    .select({ epoch: writerFence.epoch })
    .from(writerFence)
    .where(eq(writerFence.id, 1))
    .for("share");
  if (row?.epoch !== epoch) throw new FencedError(epoch, row?.epoch ?? null);
}

/**
 * For a tool that writes next to a running writer (a dead-letter retry, a backfill): locks the fence row FOR
 * UPDATE inside `tx`, so the transaction waits for the writer's batch in flight (which holds the row FOR SHARE)
 * and the writer's next batch waits for it to commit. The writer's epoch stays valid.
 */
export async function excludeWriter(tx: Db): Promise<void> {
  await tx.insert(writerFence).values({ id: 1, epoch: 0 }).onConflictDoNothing();
  await tx.select({ epoch: writerFence.epoch }).from(writerFence).where(eq(writerFence.id, 1)).for("update");
}
