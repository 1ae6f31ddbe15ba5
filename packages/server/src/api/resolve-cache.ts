// The in-memory cache of /v1/resolve answers (docs/design.md "Data flow" 7): bounded (second-chance LRU) keyed by node, filled from the
// mirror, emptied per node when the indexer publishes a change (NODE_CHANNEL) and entirely when the listening
// connection comes back, since notifications sent while it was gone are lost. A found entry also lives at most
// `positiveTtlMs`, a second line of defence should a notification be lost anyway. A name's own expiry is not the
// cache's concern: a found entry carries it and the route checks it on every hit.
// Stale-if-error: a found answer that left the cache without a known change of its name (its lifetime lapsed, or
// the listening connection came back and everything was dropped as "maybe changed") is kept aside, bounded like
// the cache, and served by the resolve route only when the mirror cannot be read (docs/api.md "Stale-if-error").

import { isValidLabel } from "@namereg/protocol";
import type { FastifyBaseLogger } from "fastify";
import { NAMESPACE_PREFIX, NODE_CHANNEL } from "../db/node-changes.ts";
import type { Database, Subscription } from "../db/types.ts";
import type { CounterCell } from "./resolution-counter.ts";

export type CachedResolution =
  /**
   * `body` is the serialised 200 answer and `length` its Content-Length (bytes, as a header value); `expiresAt` in
   * Unix seconds, null for a name without expiry.
   */
  | {
      readonly kind: "found";
      readonly name: string;
      readonly body: string;
      readonly length: string;
      readonly expiresAt: bigint | null;
    }
  | { readonly kind: "missing" };

/** A found answer, its length measured once here rather than on every hit. */
export function foundAnswer(name: string, body: string, expiresAt: bigint | null): CachedResolution {
  return { kind: "found", name, body, length: String(Buffer.byteLength(body)), expiresAt };
}

/** A live entry as a hit returns it. */
export interface CacheHit {
  readonly node: string;
  readonly value: CachedResolution;
  /** Kept here by the resolve path between hits, so counting a repeat resolution needs no lookup of its own. */
  counted: CounterCell | null;
}

export interface ResolveCacheOptions {
  /** Most entries kept; the least recently used goes first. */
  readonly maxEntries?: number;
  /** How long a "not found" stays cached (it is also dropped on a change of its node). */
  readonly negativeTtlMs?: number;
  /** How long a found answer stays cached at most, should its change notification be lost. */
  readonly positiveTtlMs?: number;
  /** Monotonic milliseconds, for the TTLs. */
  readonly clock?: () => number;
  /**
   * A number in [0, 1) per found entry: its lifetime is shortened by up to a fifth of `positiveTtlMs`, so answers
   * filled together (a warm-up, a burst after a restart) do not all lapse and refill in the same second.
   */
  readonly jitter?: () => number;
}

export const DEFAULT_MAX_ENTRIES = 100_000;
export const DEFAULT_NEGATIVE_TTL_MS = 5_000;
export const DEFAULT_POSITIVE_TTL_MS = 60_000;

interface Slot extends CacheHit {
  readonly name: string;
  /** `namespace/label` (pathKeyOf). */
  readonly key: string;
  /** Monotonic ms after which the slot is ignored. */
  readonly until: number;
  /** Monotonic ms after which a hit has the answer re-read in the background (found answers only). */
  readonly refreshAt: number;
  /** A re-read has been asked for (one per slot; its fill replaces the slot). */
  refreshing: boolean;
  /** Read since eviction last passed it over (second-chance LRU). */
  hot: boolean;
}

/**
 * A filled answer may be read before a change commits and stored after its notification arrived; that answer
 * would then be stale until the next change. A fill therefore takes a ticket before reading and is stored only
 * when no invalidation happened since (one counter for all nodes: rare changes cost a few missed fills).
 */
export type FillTicket = number;

/** Re-reads the answer of `node` (named `name`) from the mirror and stores it, as a miss would. */
export type Refresh = (node: string, name: string) => Promise<unknown>;

/** Share of a found answer's lifetime after which a hit has it re-read ahead of its lapse. */
const REFRESH_AFTER = 0.9;

export class ResolveCache {
  readonly #slots = new Map<string, Slot>();
  /**
   * `namespace/label` → slot (the same objects as `#slots`), so a hit is one lookup and needs no hashing: computing
   * a node costs two SHA-256, about a tenth of a cached answer's time. Keyed by the form a resolve URL carries, so
   * the hot path looks up a slice of its URL instead of building `label.namespace` (which cost ~0.3 µs a lookup:
   * the concatenation, then flattening it to hash). Kept in step with `#slots`.
   */
  readonly #byPath = new Map<string, Slot>();
  readonly #max: number;
  readonly #negativeTtlMs: number;
  readonly #positiveTtlMs: number;
  readonly #clock: () => number;
  readonly #jitter: () => number;
  #epoch = 0;
  /** Found answers dropped without a known change of their name, by node, oldest first (stale-if-error). */
  readonly #stale = new Map<string, CachedResolution>();
  /** Off until invalidation is wired up: an entry nobody can invalidate must never be served. */
  #enabled = true;
  #refresh: Refresh | null = null;

  constructor(options: ResolveCacheOptions = {}) {
    this.#max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#negativeTtlMs = options.negativeTtlMs ?? DEFAULT_NEGATIVE_TTL_MS;
    this.#positiveTtlMs = options.positiveTtlMs ?? DEFAULT_POSITIVE_TTL_MS;
    this.#clock = options.clock ?? (() => performance.now());
    this.#jitter = options.jitter ?? Math.random;
  }

  get size(): number {
    return this.#slots.size;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /**
   * Lookups answered from the cache, lookups that had to read the mirror (for /metrics), and misses answered
   * with a stale answer because the mirror could not be read.
   */
  readonly stats = { hits: 0, misses: 0, staleServed: 0 };

  get(node: string): CachedResolution | undefined {
    return this.#live(this.#slots.get(node))?.value;
  }

  /** The live entry of `label.namespace` with its node. */
  hit(name: string): CacheHit | undefined {
    return this.#live(this.#byPath.get(pathKeyOf(name)));
  }

  /** The live entry of `namespace/label` (a resolve URL's segments) with its node, in one lookup: the hot path. */
  hitPath(path: string): CacheHit | undefined {
    return this.#live(this.#byPath.get(path));
  }

  /**
   * A hit only marks the slot: moving it to the young end on every read (delete + set) cost two more hash-table
   * operations on the hottest path. Eviction gives marked slots a second chance instead (CLOCK).
   */
  #live(slot: Slot | undefined): Slot | undefined {
    if (slot === undefined) return undefined;
    const now = this.#clock();
    if (slot.until <= now) {
      this.#retire(slot);
      this.#drop(slot);
      return undefined;
    }
    slot.hot = true;
    // A name still asked for near the end of its answer's lifetime is re-read in the background while the answer
    // is served: its readers never meet the miss, and the re-read comes no earlier than the lapse would have.
    if (slot.refreshAt <= now && !slot.refreshing && this.#refresh !== null) {
      slot.refreshing = true;
      // A failed re-read leaves the answer to lapse; the miss then reports the failure to its reader.
      this.#refresh(slot.node, slot.name).catch(() => {});
    }
    return slot;
  }

  /**
   * The last found answer of `node` that left the cache without a known change (a lapse, a reconnect's reset): for
   * the resolve route to serve while the mirror cannot be read. Its expiry is the caller's to check.
   */
  stale(node: string): CachedResolution | undefined {
    return this.#stale.get(node);
  }

  /** How found answers are re-read ahead of their lapse (the resolve route's fill); none: they just lapse. */
  refreshWith(refresh: Refresh): void {
    this.#refresh = refresh;
  }

  ticket(): FillTicket {
    return this.#epoch;
  }

  /** Stores a fill unless the cache is off or something was invalidated after `ticket` was taken. */
  set(node: string, name: string, value: CachedResolution, ticket: FillTicket): void {
    if (!this.#enabled || ticket !== this.#epoch) return;
    const found = value.kind === "found";
    const ttl = found ? this.#positiveTtlMs * (1 - this.#jitter() / 5) : this.#negativeTtlMs;
    const now = this.#clock();
    const until = now + ttl;
    const refreshAt = found ? now + ttl * REFRESH_AFTER : Number.POSITIVE_INFINITY;
    const previous = this.#slots.get(node);
    if (previous !== undefined) this.#drop(previous);
    this.#stale.delete(node);
    const key = pathKeyOf(name);
    const slot: Slot = {
      node,
      name,
      key,
      value,
      until,
      refreshAt,
      refreshing: false,
      hot: false,
      counted: null,
    };
    this.#slots.set(node, slot);
    this.#byPath.set(key, slot);
    while (this.#slots.size > this.#max) {
      const oldest = this.#slots.values().next();
      if (oldest.done === true) break;
      const candidate = oldest.value;
      if (candidate.hot) {
        // Read since it was last passed over: to the young end, unmarked.
        candidate.hot = false;
        this.#slots.delete(candidate.node);
        this.#slots.set(candidate.node, candidate);
      } else this.#drop(candidate);
    }
  }

  /** Drops every cached answer of the namespace `label` (names `….label`). Rare (a lock): a scan is fine. */
  invalidateNamespace(label: string): void {
    this.#epoch++;
    const suffix = `.${label}`;
    for (const slot of [...this.#slots.values()]) if (slot.name.endsWith(suffix)) this.#drop(slot);
    for (const [node, value] of [...this.#stale])
      if (value.kind === "found" && value.name.endsWith(suffix)) this.#stale.delete(node);
  }

  invalidate(nodes: Iterable<string>): void {
    this.#epoch++;
    for (const node of nodes) {
      this.#stale.delete(node);
      const slot = this.#slots.get(node);
      if (slot !== undefined) this.#drop(slot);
    }
  }

  /** Forgets everything, stale answers included: something changed and nobody said what. */
  clear(): void {
    this.#stale.clear();
    this.#reset();
  }

  /**
   * Drops every answer since any may have changed unnoticed (notifications were lost), keeping the found ones
   * aside as stale: the last the mirror said, for when it cannot say more.
   */
  retireAll(): void {
    for (const slot of this.#slots.values()) this.#retire(slot);
    this.#reset();
  }

  #reset(): void {
    this.#epoch++;
    this.#slots.clear();
    this.#byPath.clear();
  }

  #retire(slot: Slot): void {
    if (slot.value.kind !== "found") return;
    this.#stale.delete(slot.node);
    this.#stale.set(slot.node, slot.value);
    if (this.#stale.size > this.#max) {
      const oldest = this.#stale.keys().next();
      if (oldest.done !== true) this.#stale.delete(oldest.value);
    }
  }

  #drop(slot: Slot): void {
    this.#slots.delete(slot.node);
    // A name re-filled under another node (reissue) already points at its new slot.
    if (this.#byPath.get(slot.key) === slot) this.#byPath.delete(slot.key);
  }

  /** Stops caching (and forgets everything) or resumes it. */
  setEnabled(enabled: boolean): void {
    if (!enabled) this.clear();
    this.#enabled = enabled;
  }
}

/** `namespace/label` of the name `label.namespace` (a validated label holds no dot). */
export function pathKeyOf(name: string): string {
  const dot = name.indexOf(".");
  return `${name.slice(dot + 1)}/${name.slice(0, dot)}`;
}

/** Parses a NODE_CHANNEL payload: comma-separated 64-hex nodes; anything else is ignored. */
export function nodesOfPayload(payload: string): string[] {
  return payload.split(",").filter((node) => /^[0-9a-f]{64}$/.test(node));
}

/** The `ns:<label>` items of a NODE_CHANNEL payload (namespace-wide changes). */
export function namespacesOfPayload(payload: string): string[] {
  return payload
    .split(",")
    .filter((item) => item.startsWith(NAMESPACE_PREFIX))
    .map((item) => item.slice(NAMESPACE_PREFIX.length))
    .filter((label) => isValidLabel(label));
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
        const labels = namespacesOfPayload(payload);
        // A payload we cannot read still means "something changed": forgetting everything is the safe answer.
        if (nodes.length === 0 && labels.length === 0 && payload !== "") cache.clear();
        else {
          cache.invalidate(nodes);
          for (const label of labels) cache.invalidateNamespace(label);
        }
      },
      {
        onReconnect: () => {
          log.info("change notifications are back; the resolve cache starts empty");
          cache.retireAll();
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
