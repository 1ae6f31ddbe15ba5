// The in-memory cache of /v1/resolve answers (DESIGN data flow 7): bounded LRU keyed by node, filled from the
// mirror, emptied per node when the indexer publishes a change (NODE_CHANNEL) and entirely when the listening
// connection comes back, since notifications sent while it was gone are lost. A found entry also lives at most
// `positiveTtlMs`, a second line of defence should a notification be lost anyway. A name's own expiry is not the
// cache's concern: a found entry carries it and the route checks it on every hit.
import type { FastifyBaseLogger } from "fastify";
import { NODE_CHANNEL } from "../db/node-changes.ts";
import type { Database, Subscription } from "../db/types.ts";

export type CachedResolution =
  /** `body` is the serialised 200 answer; `expiresAt` in Unix seconds, null for a name without expiry. */
  | {
      readonly kind: "found";
      readonly name: string;
      readonly body: string;
      readonly expiresAt: bigint | null;
    }
  | { readonly kind: "missing" };

export interface ResolveCacheOptions {
  /** Most entries kept; the least recently used goes first. */
  readonly maxEntries?: number;
  /** How long a "not found" stays cached (it is also dropped on a change of its node). */
  readonly negativeTtlMs?: number;
  /** How long a found answer stays cached at most, should its change notification be lost. */
  readonly positiveTtlMs?: number;
  /** Monotonic milliseconds, for the TTLs. */
  readonly clock?: () => number;
}

export const DEFAULT_MAX_ENTRIES = 100_000;
export const DEFAULT_NEGATIVE_TTL_MS = 5_000;
export const DEFAULT_POSITIVE_TTL_MS = 60_000;

interface Slot {
  readonly name: string;
  readonly value: CachedResolution;
  /** Monotonic ms after which the slot is ignored. */
  readonly until: number;
}

/**
 * A filled answer may be read before a change commits and stored after its notification arrived; that answer
 * would then be stale until the next change. A fill therefore takes a ticket before reading and is stored only
 * when no invalidation happened since (one counter for all nodes: rare changes cost a few missed fills).
 */
export type FillTicket = number;

export class ResolveCache {
  readonly #slots = new Map<string, Slot>();
  /**
   * Name → node of every slot, so a hit needs no hashing: computing a node costs two SHA-256, about a tenth of a
   * cached answer's time. Kept in step with `#slots` (one entry per slot).
   */
  readonly #nodes = new Map<string, string>();
  readonly #max: number;
  readonly #negativeTtlMs: number;
  readonly #positiveTtlMs: number;
  readonly #clock: () => number;
  #epoch = 0;
  /** Off until invalidation is wired up: an entry nobody can invalidate must never be served. */
  #enabled = true;

  constructor(options: ResolveCacheOptions = {}) {
    this.#max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#negativeTtlMs = options.negativeTtlMs ?? DEFAULT_NEGATIVE_TTL_MS;
    this.#positiveTtlMs = options.positiveTtlMs ?? DEFAULT_POSITIVE_TTL_MS;
    this.#clock = options.clock ?? (() => performance.now());
  }

  get size(): number {
    return this.#slots.size;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Lookups answered from the cache and lookups that had to read the mirror (for /metrics). */
  readonly stats = { hits: 0, misses: 0 };

  get(node: string): CachedResolution | undefined {
    const slot = this.#slots.get(node);
    if (slot === undefined) return undefined;
    if (slot.until <= this.#clock()) {
      this.#drop(node, slot);
      return undefined;
    }
    // Re-insertion moves the node to the young end of the Map's insertion order.
    this.#slots.delete(node);
    this.#slots.set(node, slot);
    return slot.value;
  }

  /** The node of a cached `label.namespace`, found without hashing; undefined when not cached. */
  nodeOf(name: string): string | undefined {
    return this.#nodes.get(name);
  }

  /** The cached answer for `label.namespace`, found without computing its node. */
  getByName(name: string): CachedResolution | undefined {
    const node = this.#nodes.get(name);
    return node === undefined ? undefined : this.get(node);
  }

  ticket(): FillTicket {
    return this.#epoch;
  }

  /** Stores a fill unless the cache is off or something was invalidated after `ticket` was taken. */
  set(node: string, name: string, value: CachedResolution, ticket: FillTicket): void {
    if (!this.#enabled || ticket !== this.#epoch) return;
    const until = this.#clock() + (value.kind === "found" ? this.#positiveTtlMs : this.#negativeTtlMs);
    const previous = this.#slots.get(node);
    if (previous !== undefined) this.#drop(node, previous);
    this.#slots.set(node, { name, value, until });
    this.#nodes.set(name, node);
    while (this.#slots.size > this.#max) {
      const oldest = this.#slots.entries().next();
      if (oldest.done === true) break;
      this.#drop(oldest.value[0], oldest.value[1]);
    }
  }

  invalidate(nodes: Iterable<string>): void {
    this.#epoch++;
    for (const node of nodes) {
      const slot = this.#slots.get(node);
      if (slot !== undefined) this.#drop(node, slot);
    }
  }

  clear(): void {
    this.#epoch++;
    this.#slots.clear();
    this.#nodes.clear();
  }

  #drop(node: string, slot: Slot): void {
    this.#slots.delete(node);
    this.#nodes.delete(slot.name);
  }

  /** Stops caching (and forgets everything) or resumes it. */
  setEnabled(enabled: boolean): void {
    if (!enabled) this.clear();
    this.#enabled = enabled;
  }
}

/** Parses a NODE_CHANNEL payload: comma-separated 64-hex nodes; anything else is ignored. */
export function nodesOfPayload(payload: string): string[] {
  return payload.split(",").filter((node) => /^[0-9a-f]{64}$/.test(node));
}

/**
 * Subscribes `cache` to the indexer's change notifications. If the subscription cannot be made, the cache stays
 * off (every resolve reads the mirror) rather than serving answers nothing would invalidate.
 */
export async function wireInvalidation(
  cache: ResolveCache,
  database: Database,
  log: FastifyBaseLogger,
): Promise<Subscription | null> {
  cache.setEnabled(false);
  try {
    const subscription = await database.listen(
      NODE_CHANNEL,
      (payload) => {
        const nodes = nodesOfPayload(payload);
        // A payload we cannot read still means "something changed": forgetting everything is the safe answer.
        if (nodes.length === 0 && payload !== "") cache.clear();
        else cache.invalidate(nodes);
      },
      {
        onReconnect: () => {
          log.info("change notifications are back; the resolve cache starts empty");
          cache.clear();
        },
      },
    );
    cache.setEnabled(true);
    return subscription;
  } catch (err) {
    log.warn({ err }, "cannot listen for changed names; /v1/resolve runs without its cache");
    return null;
  }
}
