// How far the read replica (DATABASE_READ_URL) is behind the writer, for /v1/status (docs/api.md "GET /v1/status",
// `Read replica`). A standby's own `now() - pg_last_xact_replay_timestamp()` alone misleads: on an idle primary it
// grows forever although the standby has everything. So the WAL positions decide first: the primary's
// `pg_current_wal_lsn()`, read before the standby's `pg_last_wal_replay_lsn()` (WAL written between the two reads
// is not counted as lag). At or past it, the standby lacks nothing the primary had when asked: lag 0. Behind it,
// the lag is the age of the last transaction the standby replayed (its commit time on the primary): the standby's
// view is at least that new, so this is an upper bound — after a long idle spell it overstates until the new
// transaction is replayed (milliseconds on a standby without an apply delay).
import type { Row } from "./types.ts";

export interface ReplicaLagReading {
  /** The replica is a standby replaying WAL (`pg_is_in_recovery()`); false: a primary or a logical replica. */
  readonly inRecovery: boolean;
  /** Bytes of WAL the primary had written that the standby has not replayed; null if either position is unknown. */
  readonly behindBytes: number | null;
  /** Seconds since the commit (on the primary) of the last transaction the standby replayed; null before any. */
  readonly replayAgeSeconds: number | null;
  /** That commit's time. */
  readonly replayedAt: Date | null;
}

type Query = <T extends Row>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * Reads the primary's WAL position, then the replica's replay position and time. Throws when the replica does
 * not answer; a primary that does not answer leaves `behindBytes` null.
 */
export async function readReplicaLag(primary: Query, replica: Query): Promise<ReplicaLagReading> {
  const primaryLsn = await primary<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn").then(
    (rows) => rows[0]?.lsn ?? null,
    () => null,
  );
  const [row] = await replica<{
    in_recovery: boolean;
    behind: number | null;
    age: number | null;
    replayed_at: Date | null;
  }>(
    `select pg_is_in_recovery() as in_recovery,
            pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::float8 as behind,
            extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp())::float8 as age,
            pg_last_xact_replay_timestamp() as replayed_at`,
    [primaryLsn],
  );
  if (row === undefined) throw new Error("the read replica returned no row");
  return {
    inRecovery: row.in_recovery,
    behindBytes: row.behind === null ? null : Math.max(0, row.behind),
    replayAgeSeconds: row.age === null ? null : Math.max(0, row.age),
    replayedAt: row.replayed_at,
  };
}
