// The writer epoch (see `writerFence` in tables.ts). An advisory lock alone cannot stop a writer whose lock
// connection died while its pool connections live on: it may commit for seconds before it notices. The epoch
// makes such a commit fail inside its own transaction instead of landing next to the successor's.
import { eq, sql } from "drizzle-orm";
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

/** Call once the writer lock is held: starts a new epoch, waiting for the previous writer's batches in flight. */
export async function takeWriterEpoch(db: Db): Promise<number> {
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

/** Proves inside `tx` that `epoch` is still current; the shared row lock keeps a successor waiting until commit. */
export async function assertWriter(tx: Db, epoch: number): Promise<void> {
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
