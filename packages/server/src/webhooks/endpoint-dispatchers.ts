// One HTTP client per webhook endpoint (docs/webhooks.md "Delivery": a slow or failing endpoint holds only
// itself). A shared client pools connections per host: eight hanging endpoints on one host held all of its
// connections, and another namespace's endpoint there waited in the queue behind them. Each endpoint has one
// attempt in flight at a time, so its own single connection is all it needs, and a request handed to it is
// written at once — which is also why an attempt's webhook-timestamp, taken just before, is the moment it is
// sent. A client unused for the keep-alive time has no connection left and is closed and forgotten.
import type { Dispatcher } from "undici";
import { type DispatcherOptions, KEEP_ALIVE_MS, webhookDispatcher } from "./safe-dispatcher.ts";

interface Entry {
  readonly dispatcher: Dispatcher;
  lastUsed: number;
  busy: number;
}

export class EndpointDispatchers {
  readonly #options: DispatcherOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Runs `use` with the endpoint's own client. */
  async with<T>(endpointId: string, use: (dispatcher: Dispatcher) => Promise<T>): Promise<T> {
    let entry = this.#entries.get(endpointId);
    if (entry === undefined) {
      entry = { dispatcher: webhookDispatcher(this.#options), lastUsed: Date.now(), busy: 0 };
      this.#entries.set(endpointId, entry);
    }
    entry.busy++;
    try {
      return await use(entry.dispatcher);
    } finally {
      entry.busy--;
      entry.lastUsed = Date.now();
    }
  }

  /** Closes the clients idle for longer than the keep-alive time (their connection is gone anyway). */
  sweep(now = Date.now()): void {
    for (const [id, entry] of this.#entries) {
      if (entry.busy > 0 || now - entry.lastUsed < KEEP_ALIVE_MS) continue;
      this.#entries.delete(id);
      entry.dispatcher.close().catch(() => undefined);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  async close(): Promise<void> {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => e.dispatcher.close().catch(() => undefined)));
  }
}
