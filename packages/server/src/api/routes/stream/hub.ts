// One reader of the change outbox per API process, fanning out to every open `/v1/stream` (docs/api.md
// "GET /v1/stream"). It hears the indexer's and the watchers' commits on CHANGES_CHANNEL (LISTEN on PostgreSQL,
// in process on PGlite), reads what is new from the database writer — a replica could lag behind a notification
// it has not replayed yet — and hands each row to the streams whose filters it matches. A stream resuming from
// an earlier position first reads its backlog through its own filter, a page per turn, then joins the live
// rows. One loop does all of it, so every stream sees its rows in position order, none twice and none missed.
import {
  CHANGES_CHANNEL,
  type ChangeFilter,
  changePayload,
  matchesFilter,
  type OutboxRow,
  outboxBounds,
  readChanges,
} from "../../../db/outbox.ts";
import type { Database, Subscription } from "../../../db/types.ts";

/** Rows read per statement, live or backlog. */
const PAGE = 500;
/** Looked at this often even when no notification came (one lost on a reconnect, a listener that failed). */
const POLL_MS = 2000;
/**
 * The most a stream may hold in this process for its client, written and not yet taken by the socket: a write
 * that would go past it cuts the client off instead (it resumes with Last-Event-ID from the database).
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Where an SSE stream writes; a Node response in the route, anything alike in tests. */
export interface StreamSink {
  write(chunk: string): void;
  /** Bytes written and not yet taken by the client. */
  readonly writableLength: number;
  end(): void;
  /**
   * Cuts the connection at once, dropping whatever is buffered for it (a reset: `end()` would wait for a client
   * that does not read, holding the buffers and the socket). The stream's removal still comes from its close.
   */
  destroy(): void;
}

export interface StreamLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface Subscriber {
  readonly sink: StreamSink;
  readonly filter: ChangeFilter;
  readonly ip: string;
  /** Rows up to here were sent or judged not to match. */
  position: number;
  /** False while the backlog from an earlier position is being read. */
  live: boolean;
  /** Nothing more is written to it: cut off, or gone. */
  cut: boolean;
  /** Its connection is gone and its address's slot free. */
  closed: boolean;
}

/** What a new stream is told first. */
export type StreamStart =
  | { kind: "live"; position: number }
  | { kind: "resume"; position: number }
  | { kind: "reset"; reason: "expired" | "unknown"; requested: number; position: number };

export class ChangeHub {
  readonly #database: Database;
  readonly #log: StreamLogger;
  readonly #heartbeatMs: number;
  readonly #subscribers = new Set<Subscriber>();
  readonly #perIp = new Map<string, number>();
  #position = 0;
  #ready: Promise<void> | null = null;
  #listening: Subscription | null = null;
  #pumping: Promise<void> | null = null;
  #again = false;
  #poll: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(database: Database, log: StreamLogger, options: { heartbeatMs: number }) {
    this.#database = database;
    this.#log = log;
    this.#heartbeatMs = options.heartbeatMs;
  }

  /** Open streams of a client address in this process. */
  openFrom(ip: string): number {
    return this.#perIp.get(ip) ?? 0;
  }

  /** Open streams in this process. */
  get size(): number {
    return this.#subscribers.size;
  }

  /**
   * Where a stream asking to resume after `after` (null: from now) starts. Listening is set up first, so no
   * commit after this answer can go unheard.
   */
  async start(after: number | null): Promise<StreamStart> {
    await this.#ensureReady();
    const bounds = await outboxBounds(this.#database.db);
    // With no stream open nothing was read meanwhile, and nobody needs what was written: the hub starts from now.
    if (this.#subscribers.size === 0) this.#position = Math.max(this.#position, bounds.head);
    if (after === null) return { kind: "live", position: Math.max(bounds.head, this.#position) };
    if (after < bounds.prunedThrough) {
      return {
        kind: "reset",
        reason: "expired",
        requested: after,
        position: Math.max(bounds.head, this.#position),
      };
    }
    if (after > bounds.head) {
      return {
        kind: "reset",
        reason: "unknown",
        requested: after,
        position: Math.max(bounds.head, this.#position),
      };
    }
    return { kind: "resume", position: after };
  }

  /** Adds a stream at `start` (from `start()`); returns its removal. */
  add(sink: StreamSink, filter: ChangeFilter, ip: string, start: StreamStart): () => void {
    if (this.#closed) {
      sink.end();
      return () => {};
    }
    // Rows the hub passed on between `start()` and now are read as a (short) backlog.
    const live = start.position >= this.#position;
    const sub: Subscriber = { sink, filter, ip, position: start.position, live, cut: false, closed: false };
    this.#subscribers.add(sub);
    this.#perIp.set(ip, this.openFrom(ip) + 1);
    if (this.#heartbeat === null) {
      this.#heartbeat = setInterval(() => this.#beat(), this.#heartbeatMs);
      this.#heartbeat.unref();
    }
    if (!live) this.#kick();
    return () => this.#remove(sub);
  }

  /** Ends every stream and stops listening: the server is closing. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#poll !== null) clearInterval(this.#poll);
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    for (const sub of [...this.#subscribers]) {
      this.#detach(sub);
      sub.sink.end();
    }
    await this.#pumping?.catch(() => {});
    await this.#listening?.close().catch(() => {});
    this.#listening = null;
  }

  #ensureReady(): Promise<void> {
    this.#ready ??= this.#open().catch((error: unknown) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  async #open(): Promise<void> {
    this.#listening = await this.#database.listen(
      CHANGES_CHANNEL,
      (payload) => {
        if (Number(payload) > this.#position) this.#kick();
      },
      { onReconnect: () => this.#kick() },
    );
    // Read after listening: whatever commits from here on is either below this head or announced.
    this.#position = (await outboxBounds(this.#database.db)).head;
    this.#poll = setInterval(() => this.#kick(), POLL_MS);
    this.#poll.unref();
  }

  #kick(): void {
    if (this.#closed || this.#subscribers.size === 0) return;
    if (this.#pumping !== null) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump()
      .catch((error: unknown) => this.#log.error({ err: error }, "change stream: reading the outbox failed"))
      .finally(() => {
        this.#pumping = null;
        if (this.#again) {
          this.#again = false;
          this.#kick();
        }
      });
  }

  async #pump(): Promise<void> {
    do {
      this.#again = false;
      await this.#readLive();
      for (const sub of [...this.#subscribers]) {
        if (!sub.live && !sub.cut) await this.#readBacklog(sub);
        if (!sub.live && !sub.cut) this.#again = true;
      }
    } while (this.#again && !this.#closed && this.#subscribers.size > 0);
  }

  /** New rows for every live stream, up to what has committed. */
  async #readLive(): Promise<void> {
    for (;;) {
      const rows = await readChanges(this.#database.db, this.#position, PAGE);
      for (const sub of this.#subscribers) {
        if (sub.live) this.#deliver(sub, rows);
      }
      const last = rows.at(-1);
      if (last !== undefined) this.#position = Math.max(this.#position, last.id);
      if (rows.length < PAGE || this.#closed) return;
    }
  }

  /** One page of a resuming stream's backlog; it goes live once it reaches the shared position. */
  async #readBacklog(sub: Subscriber): Promise<void> {
    const { prunedThrough } = await outboxBounds(this.#database.db);
    if (sub.position < prunedThrough) {
      // Pruned while it read: what it missed is gone, so it is told as a fresh stream would be.
      this.#write(sub, resetFrame("expired", sub.position, this.#position));
      sub.position = this.#position;
      sub.live = true;
      return;
    }
    const rows = (await readChanges(this.#database.db, sub.position, PAGE, sub.filter)).filter(
      (r) => r.id <= this.#position,
    );
    this.#deliver(sub, rows);
    if (rows.length < PAGE) {
      sub.position = this.#position;
      sub.live = true;
    }
  }

  #deliver(sub: Subscriber, rows: readonly OutboxRow[]): void {
    for (const row of rows) {
      if (sub.cut) return;
      if (row.id <= sub.position) continue;
      sub.position = row.id;
      if (!matchesFilter(row, sub.filter)) continue;
      let body: string;
      try {
        body = changePayload(row);
      } catch (error) {
        this.#log.error({ err: error, position: row.id }, "change stream: a change could not be sent");
        continue;
      }
      this.#write(sub, `id: ${row.id}\ndata: ${body}\n\n`);
    }
  }

  #beat(): void {
    for (const sub of [...this.#subscribers]) this.#write(sub, ": heartbeat\n\n");
  }

  /** Writes `chunk`, or cuts the client off when it would leave more than MAX_BUFFERED_BYTES waiting for it. */
  #write(sub: Subscriber, chunk: string): void {
    if (sub.cut) return;
    if (sub.sink.writableLength + Buffer.byteLength(chunk) > MAX_BUFFERED_BYTES) {
      this.#log.warn({ ip: sub.ip, position: sub.position }, "change stream: client too slow, disconnected");
      this.#detach(sub);
      sub.sink.destroy();
      return;
    }
    sub.sink.write(chunk);
  }

  /** Stops writing to a stream; its address keeps the slot until its connection is gone (`#remove`). */
  #detach(sub: Subscriber): void {
    if (sub.cut) return;
    sub.cut = true;
    this.#subscribers.delete(sub);
    if (this.#subscribers.size === 0 && this.#heartbeat !== null) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = null;
    }
  }

  #remove(sub: Subscriber): void {
    if (sub.closed) return;
    this.#detach(sub);
    sub.closed = true;
    const left = this.openFrom(sub.ip) - 1;
    if (left > 0) this.#perIp.set(sub.ip, left);
    else this.#perIp.delete(sub.ip);
  }
}

/**
 * The first lines of every stream: the reconnect delay, and the position a reconnect resumes from as an event
 * `ready` carrying it. With data, not as an id-only frame: SSE clients built on eventsource-parser (the npm
 * `eventsource` 4.x among them) drop a frame without data, id included, and then reconnect without
 * Last-Event-ID, missing whatever changed while they were away.
 */
export function openingFrame(start: StreamStart): string {
  const head = "retry: 2000\n";
  if (start.kind === "reset") return head + resetFrame(start.reason, start.requested, start.position);
  const data = JSON.stringify({ position: String(start.position) });
  return `${head}event: ready\nid: ${start.position}\ndata: ${data}\n\n`;
}

/**
 * The stream cannot resume where asked (pruned past retention, or a position this outbox never gave): the client
 * has missed changes and should re-read what it shows. The frame's id moves its position to now.
 */
function resetFrame(reason: "expired" | "unknown", requested: number, position: number): string {
  const data = JSON.stringify({ reason, lastEventId: String(requested), position: String(position) });
  return `event: reset\nid: ${position}\ndata: ${data}\n\n`;
}
