import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { DatabaseKind } from "../config/database-url.ts";
import type { ReplicaLagReading } from "./replica-lag.ts";
import type { ReplicaSchema } from "./replica-schema.ts";
import type * as schema from "./schema.ts";

export type Schema = typeof schema;

/** Drizzle over either driver; both speak the same PostgreSQL dialect. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Row = Record<string, unknown>;

export interface ListenOptions {
  /**
   * Called when a lost listening connection is back. Notifications sent meanwhile were missed, so a listener
   * that caches must treat everything as changed.
   */
  readonly onReconnect?: () => void;
}

export interface Subscription {
  close(): Promise<void>;
}

export interface LockOptions {
  /**
   * PostgreSQL: hold the lock as a lease. Its session says it is alive several times per `leaseMs`, and the
   * server ends a session that has said nothing for `leaseMs` (`idle_session_timeout`, PostgreSQL 14+), which
   * frees the lock. A holder that is frozen (SIGSTOP, a paused VM) or cut off so loses it within `leaseMs`,
   * instead of keeping it for as long as its TCP connection looks open. Default: held until the connection ends.
   */
  readonly leaseMs?: number;
}

/** A session-level advisory lock, held until released or until its connection is lost. */
export interface AdvisoryLock {
  readonly key: bigint;
  /** Aborted if the lock was lost without release (its connection died): stop the work it guarded at once. */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface Database {
  readonly kind: DatabaseKind;
  /** The writer. */
  readonly db: Db;
  /** For reads that may lag slightly (a read replica on PostgreSQL); the writer itself on PGlite. */
  readonly replica: Db;
  /** Applies the committed migrations; safe to run from several processes at once. */
  migrate(): Promise<void>;
  /**
   * Whether the read replica has replayed the migrations this code ships (db/replica-schema.ts); current at once
   * where the replica is the writer. Throws when the replica does not answer.
   */
  replicaSchema(): Promise<ReplicaSchema>;
  /**
   * How far the read replica is behind the writer (db/replica-lag.ts). Present only when reads go to a separate
   * replica (PostgreSQL with DATABASE_READ_URL). Throws when the replica does not answer.
   */
  replicaLag?(): Promise<ReplicaLagReading>;
  /** True when the writer and replica each answer a trivial query in time. Never throws. */
  healthy(): Promise<boolean>;
  /** Connections of the writer pool (PostgreSQL); undefined for PGlite's single connection. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** A raw SQL statement on the writer with `$1`… parameters. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Sends a notification now. Inside a transaction use `tx.execute(sql\`select pg_notify(…)\`)` instead, so it is
   * delivered only if the transaction commits.
   */
  notify(channel: string, payload: string): Promise<void>;
  /** Channel names are lower-case identifiers (`[a-z_][a-z0-9_]*`). */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<Subscription>;
  /** Takes the lock if no other session holds it, else null. */
  tryAdvisoryLock(key: bigint | number, options?: LockOptions): Promise<AdvisoryLock | null>;
  /** Waits for the lock; rejects with the signal's reason if it is aborted first. */
  advisoryLock(
    key: bigint | number,
    options?: LockOptions & { readonly signal?: AbortSignal },
  ): Promise<AdvisoryLock>;
  close(): Promise<void>;
}
