// When is a timed name expired? When either clock says so: the wall clock, or the latest chain time the service
// knows (the close time of the newest archived event's ledger, or the service RPC's head). Either alone can be
// behind: a wall clock may lag the chain, and the mirror's chain time lags while nothing is emitted. The chain
// side is refreshed in the background so the resolve path never waits for it.
import { desc, isNotNull } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { events } from "../db/tables.ts";
import type { Db } from "../db/types.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { type ChainHeadSource, observeLiveHead } from "./chain-head.ts";

export const CHAIN_TIME_REFRESH_MS = 5_000;

export class ExpiryClock {
  readonly #db: Db;
  readonly #chain: ChainHeadSource | undefined;
  readonly #now: () => Date;
  readonly #log: FastifyBaseLogger;
  /** Latest known chain time, Unix seconds; null until one is known. */
  #chainSeconds: number | null = null;
  #timer: NodeJS.Timeout | null = null;

  constructor(deps: { db: Db; chain: ChainHeadSource | undefined; now: () => Date; log: FastifyBaseLogger }) {
    this.#db = deps.db;
    this.#chain = deps.chain;
    this.#now = deps.now;
    this.#log = deps.log;
  }

  /**
   * Reads the mirror's chain time before the first request, then both sources every `intervalMs` in the
   * background (the RPC is not awaited at start: an RPC that hangs must not hold up the API).
   */
  async start(intervalMs = CHAIN_TIME_REFRESH_MS): Promise<void> {
    this.#learn([await this.#latestArchived()]);
    void this.refresh();
    this.#timer = setInterval(() => {
      void this.refresh();
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Unix seconds by the later of the two clocks. */
  nowSeconds(): number {
    const wall = Math.floor(this.#now().getTime() / 1000);
    return this.#chainSeconds === null ? wall : Math.max(wall, this.#chainSeconds);
  }

  /** Expired at `expiresAt` (Unix seconds) — the registrar's rule: active while `expires_at > now`. */
  isExpired(expiresAt: bigint | null): boolean {
    return expiresAt !== null && expiresAt <= BigInt(this.nowSeconds());
  }

  async refresh(): Promise<void> {
    this.#learn(await Promise.all([this.#latestArchived(), this.#liveHead()]));
  }

  #learn(seconds: readonly (number | null)[]): void {
    const known = [...seconds, this.#chainSeconds].filter((s): s is number => s !== null);
    // Chain time does not go backwards; a lagging read replica must not make it seem to.
    if (known.length > 0) this.#chainSeconds = Math.max(...known);
  }

  async #latestArchived(): Promise<number | null> {
    try {
      // Event ids sort in chain order, so the primary key finds the newest event without scanning.
      const [row] = await this.#db
        .select({ at: events.at })
        .from(events)
        .where(isNotNull(events.at))
        .orderBy(desc(events.id))
        .limit(1);
      return row?.at == null ? null : Math.floor(row.at.getTime() / 1000);
    } catch (err) {
      // A database that is down or a replica that has not replayed the migrations yet is a state the API
      // already answers (503) and reports (/v1/status), not a fault of the clock: the wall clock stands in.
      if (isDatabaseUnavailable(err)) this.#log.debug({ err }, "latest archived chain time not readable now");
      else this.#log.warn({ err }, "cannot read the latest archived chain time");
      return null;
    }
  }

  async #liveHead(): Promise<number | null> {
    const head = await observeLiveHead(this.#chain, this.#now, this.#log);
    if (head?.closedAt == null) return null;
    return Math.floor(Date.parse(head.closedAt) / 1000);
  }
}
