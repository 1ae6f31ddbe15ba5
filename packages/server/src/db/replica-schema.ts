// Whether the read replica has the schema this code reads. A replica replays the writer's migrations some time
// after `migrate()` applied them there (or is being restored, or was never pointed at the right primary): until
// it has the newest one this code ships, reads on it fail with "relation does not exist". `serve` waits for it
// before it listens, and the API answers 503 database_unavailable meanwhile (unavailable.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS_FOLDER } from "./shared.ts";
import type { Database, Row } from "./types.ts";
import { ReplicaBehindError } from "./unavailable.ts";

export interface ReplicaSchema {
  /** Migrations this code ships; `latest` is the newest one's name (e.g. `0006_billing`). */
  readonly shipped: number;
  readonly latest: string;
  /** Migrations the replica has replayed (rows of drizzle's `__drizzle_migrations` there). */
  readonly applied: number;
  /** The replica has the newest migration this code ships (or a later one, from a newer release). */
  readonly current: boolean;
}

interface JournalEntry {
  readonly tag: string;
  readonly when: number;
}

let journal: readonly JournalEntry[] | undefined;

/** Drizzle's journal of the migrations this code ships, oldest first; `when` is what drizzle records applied. */
function shippedMigrations(): readonly JournalEntry[] {
  journal ??= (
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
      entries: JournalEntry[];
    }
  ).entries;
  return journal;
}

/** What `query` (on the replica) says about its migrations. Throws when the replica does not answer. */
export async function replicaSchemaOf(
  query: <T extends Row>(sql: string) => Promise<T[]>,
): Promise<ReplicaSchema> {
  const shipped = shippedMigrations();
  const newest = shipped.at(-1);
  let applied = 0;
  let latestApplied = 0;
  try {
    // Drizzle decides what to apply by `created_at`, the journal's `when` of each migration; so does this.
    const [row] = await query<{ n: number; latest: string | null }>(
      "select count(*)::int as n, max(created_at)::text as latest from drizzle.__drizzle_migrations",
    );
    applied = row?.n ?? 0;
    latestApplied = Number(row?.latest ?? 0);
  } catch (error) {
    // No migrations table (nor its schema): the replica has none of them yet. The replica's pool reports a
    // missing table as ReplicaBehindError (postgres.ts); PGlite's is the writer, which has it.
    const code = (error as { code?: unknown }).code;
    if (!(error instanceof ReplicaBehindError) && code !== "42P01" && code !== "3F000") throw error;
  }
  return {
    shipped: shipped.length,
    latest: newest?.tag ?? "none",
    applied,
    current: newest === undefined || latestApplied >= newest.when,
  };
}

/** What the waiting logs to; a pino logger is one. */
export interface ReplicaWaitLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Resolves true once the replica has the schema (at once without a separate replica), false if `signal` aborts
 * first. Says what it waits for when it starts waiting and whenever that changes, not on every poll.
 */
export async function waitForReplicaSchema(
  database: Pick<Database, "replicaSchema">,
  o: { readonly log: ReplicaWaitLog; readonly signal?: AbortSignal; readonly pollMs?: number },
): Promise<boolean> {
  let said = "";
  const say = (level: "info" | "warn", details: object, message: string) => {
    const text = `${message} ${JSON.stringify(details)}`;
    if (text !== said) o.log[level](details, message);
    said = text;
  };
  while (o.signal?.aborted !== true) {
    try {
      const schema = await database.replicaSchema();
      if (schema.current) {
        if (said !== "") o.log.info({ migrations: schema.applied }, "the read replica has the migrations");
        return true;
      }
      say(
        "info",
        { has: schema.applied, needs: schema.shipped },
        `waiting for the read replica to have migration ${schema.latest}`,
      );
    } catch (err) {
      say("warn", { err: (err as Error).message }, "waiting for the read replica to answer");
    }
    await pause(o.pollMs ?? 1000, o.signal);
  }
  return false;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
