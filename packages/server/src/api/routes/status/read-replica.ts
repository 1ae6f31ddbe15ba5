// The `Read replica` component of /v1/status (docs/api.md "GET /v1/status"): only when reads go to a separate
// replica (DATABASE_READ_URL). How the lag is measured, and why not from the replay time alone: db/replica-lag.ts.
import { z } from "zod";
import type { ReplicaLagReading } from "../../../db/replica-lag.ts";

export const READ_REPLICA_COMPONENT = "Read replica" as const;

export const ReadReplicaComponent = z.object({
  name: z.literal(READ_REPLICA_COMPONENT),
  state: z.enum(["operational", "degraded", "down", "unknown"]),
  /** Seconds behind the writer: 0 when caught up, else the age of the last transaction it replayed. */
  lagSeconds: z.number().nonnegative().nullable(),
  /** Bytes of WAL the writer had written that the replica has not replayed. */
  lagBytes: z.number().int().nonnegative().nullable(),
  /** Commit time on the writer of the last transaction the replica replayed. */
  replayedAt: z.iso.datetime().nullable(),
});

export type ReadReplicaState = z.infer<typeof ReadReplicaComponent>;

/** The component when the replica did not answer (in time). */
export const READ_REPLICA_DOWN: ReadReplicaState = {
  name: READ_REPLICA_COMPONENT,
  state: "down",
  lagSeconds: null,
  lagBytes: null,
  replayedAt: null,
};

/**
 * `unknown` when the lag cannot be measured (the writer did not answer; the replica is not a standby replaying
 * WAL; behind but has replayed no transaction since it started), `degraded` past `maxLagSeconds`.
 */
export function readReplicaComponent(reading: ReplicaLagReading, maxLagSeconds: number): ReadReplicaState {
  const lagBytes = reading.inRecovery ? reading.behindBytes : null;
  const lagSeconds = lagBytes === null ? null : lagBytes === 0 ? 0 : round3(reading.replayAgeSeconds);
  const state = lagSeconds === null ? "unknown" : lagSeconds > maxLagSeconds ? "degraded" : "operational";
  return {
    name: READ_REPLICA_COMPONENT,
    state,
    lagSeconds,
    lagBytes,
    replayedAt: reading.replayedAt?.toISOString() ?? null,
  };
}

/** Milliseconds are as fine as a lag is worth reporting. */
function round3(x: number | null): number | null {
  return x === null ? null : Math.round(x * 1000) / 1000;
}
