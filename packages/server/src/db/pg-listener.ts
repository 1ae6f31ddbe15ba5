// LISTEN on PostgreSQL needs a connection of its own, outside the pool, kept open and re-established when it
// drops. After a drop every subscriber hears `onReconnect`, since notifications sent meanwhile are gone.
import pg from "pg";
import type { ListenOptions, Subscription } from "./types.ts";

interface Handler {
  readonly onPayload: (payload: string) => void;
  readonly options: ListenOptions;
}

const RETRY_MIN_MS = 250;
/** As the indexer's (runtime/indexer-process.ts): change notifications back within ~2 s of a failover's end. */
const RETRY_MAX_MS = 2_000;

export class PgListener {
  readonly #url: string;
  readonly #onError: (error: Error) => void;
  readonly #handlers = new Map<string, Set<Handler>>();
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #retryMs = RETRY_MIN_MS;
  #retryTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(url: string, onError: (error: Error) => void) {
    this.#url = url;
    this.#onError = onError;
  }

  async subscribe(
    channel: string,
    onPayload: (payload: string) => void,
    options: ListenOptions,
  ): Promise<Subscription> {
    if (this.#closed) throw new Error("database is closed");
    const handler: Handler = { onPayload, options };
    const handlers = this.#handlers.get(channel) ?? new Set();
    handlers.add(handler);
    this.#handlers.set(channel, handlers);
    try {
      const client = await this.#connected();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      this.#drop(channel, handler);
      throw error;
    }
    return {
      close: async () => {
        if (!this.#drop(channel, handler)) return;
        await this.#client?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer);
    this.#handlers.clear();
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    await client?.end().catch(() => {});
  }

  /** Removes a handler; true when it was the channel's last. */
  #drop(channel: string, handler: Handler): boolean {
    const handlers = this.#handlers.get(channel);
    if (handlers === undefined || !handlers.delete(handler)) return false;
    if (handlers.size > 0) return false;
    this.#handlers.delete(channel);
    return true;
  }

  #connected(): Promise<pg.Client> {
    if (this.#client !== null) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.#url, keepAlive: true });
    client.on("error", (error) => {
      this.#onError(error);
      this.#lost(client);
    });
    client.on("end", () => this.#lost(client));
    client.on("notification", (message) => {
      for (const handler of this.#handlers.get(message.channel) ?? [])
        handler.onPayload(message.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of this.#handlers.keys())
        await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      throw new Error("database is closed");
    }
    this.#client = client;
    this.#retryMs = RETRY_MIN_MS;
    return client;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    if (!this.#closed && this.#handlers.size > 0) this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.#retryTimer !== null) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.#connected().then(
        () => {
          for (const handlers of this.#handlers.values()) {
            for (const handler of handlers) handler.options.onReconnect?.();
          }
        },
        (error: Error) => {
          this.#onError(error);
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
          if (!this.#closed) this.#scheduleReconnect();
        },
      );
    }, this.#retryMs);
    this.#retryTimer.unref();
  }
}
