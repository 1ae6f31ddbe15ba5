// GET /v1/stream with the npm `eventsource` clients, 4.x and 5.x, on both databases: a client whose connection
// drops before the first change reconnects with the position of the opening `ready` event and gets the change
// made while it was away, exactly once (4.x ignores an id-only frame, so the opening frame carries data). And the
// query parameters in the house wording: each given once.
import { createServer, type Server, Socket } from "node:net";
import { EventSource as EventSource4 } from "eventsource-v4";
import { EventSource as EventSource5 } from "eventsource-v5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { withTestDatabases } from "../../../../test/fixtures/database.ts";
import type { ChangeDraft } from "../../../changes/catalogue.ts";
import { appendChanges } from "../../../db/outbox.ts";
import { type App, buildApp } from "../../app.ts";

/** Long enough for an indexed change to reach a stream on a loaded two-core machine, twice over: a hang guard. */
const GUARD_MS = 30_000;

/**
 * A TCP proxy in front of the app that can drop every connection and hold new ones until released: a network
 * failure as a client sees it, with the reconnect waiting until the test has made its change.
 */
class DroppingProxy {
  readonly #server: Server;
  readonly #open = new Set<Socket>();
  readonly #held: Socket[] = [];
  readonly #upstreamPort: number;
  #holding = false;

  constructor(upstreamPort: number) {
    this.#upstreamPort = upstreamPort;
    this.#server = createServer((client) => {
      this.#open.add(client);
      client.on("close", () => this.#open.delete(client));
      client.on("error", () => {});
      if (this.#holding) {
        client.pause();
        this.#held.push(client);
      } else this.#pipe(client);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return (this.#server.address() as { port: number }).port;
  }

  /** Cuts every open connection and holds the next ones. */
  dropAndHold(): void {
    this.#holding = true;
    for (const socket of this.#open) socket.destroy();
  }

  /** Connections held (a client trying to reconnect). */
  get held(): number {
    return this.#held.length;
  }

  release(): void {
    this.#holding = false;
    for (const client of this.#held.splice(0)) this.#pipe(client);
  }

  async close(): Promise<void> {
    for (const socket of this.#open) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #pipe(client: Socket): void {
    const upstream = new Socket();
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    this.#open.add(upstream);
    upstream.on("close", () => this.#open.delete(upstream));
    upstream.connect(this.#upstreamPort, "127.0.0.1", () => {
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  }
}

const draft = (eventId: string, key: string): ChangeDraft => ({
  type: "record.text_changed",
  namespace: "acme",
  name: "alice.acme",
  node: "ab".repeat(32),
  ledger: 42,
  txHash: "cd".repeat(32),
  eventId,
  at: null,
  data: { key },
});

/** Waits until `check` holds, looking every 50 ms; fails after GUARD_MS (a hang guard, not a timed assertion). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + GUARD_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type EventSourceClass = typeof EventSource5;

const CLIENTS: readonly [string, EventSourceClass][] = [
  ["eventsource 4.x", EventSource4 as unknown as EventSourceClass],
  ["eventsource 5.x", EventSource5],
];

withTestDatabases((t) => {
  let app: App;
  let port: number;

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(), db: t.db(), redis: null });
    const address = await app.listen({ port: 0, host: "127.0.0.1" });
    port = Number(new URL(address).port);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe.each(CLIENTS)("with %s", (client, EventSource) => {
    it("resumes across a drop before the first change: the change made meanwhile arrives once", async () => {
      const proxy = new DroppingProxy(port);
      const proxyPort = await proxy.listen();
      const source = new EventSource(`http://127.0.0.1:${proxyPort}/v1/stream`);
      const keys: string[] = [];
      const ready: string[] = [];
      let opened = 0;
      source.addEventListener("open", () => opened++);
      source.addEventListener("ready", (event) => ready.push((event as MessageEvent).data));
      source.addEventListener("message", (event) => {
        keys.push((JSON.parse((event as MessageEvent).data) as { data: { key: string } }).data.key);
      });
      try {
        await until(() => ready.length === 1, `${client}'s ready event`);
        expect(JSON.parse(ready[0] ?? "")).toEqual({ position: expect.stringMatching(/^\d+$/) });
        proxy.dropAndHold();
        await until(() => proxy.held > 0, `${client} to reconnect`);
        const run = `${t.kind}-${client}`;
        await t.db().db.transaction((tx) => appendChanges(tx, [draft(`${run}-away`, "away")]));
        proxy.release();
        await until(() => opened === 2, `${client}'s second open`);
        await t.db().db.transaction((tx) => appendChanges(tx, [draft(`${run}-back`, "back")]));
        await until(() => keys.includes("back"), "the change after the reconnect");
        expect(keys).toEqual(["away", "back"]);
      } finally {
        source.close();
        await proxy.close();
      }
    });
  });

  it("answers a repeated parameter with `<name>: must be given once`, as /v1/events does", async () => {
    for (const name of ["namespace", "name", "types", "lastEventId"]) {
      const value = { namespace: "acme", name: "alice.acme", types: "name.issued", lastEventId: "1" }[name];
      const response = await app.inject({ url: `/v1/stream?${name}=${value}&${name}=${value}` });
      expect({ name, status: response.statusCode, body: response.json() }).toEqual({
        name,
        status: 400,
        body: { error: "invalid_request", detail: `${name}: must be given once` },
      });
    }
    // An invalid name is still invalid_name.
    expect((await app.inject({ url: "/v1/stream?namespace=-acme" })).json()).toMatchObject({
      error: "invalid_name",
    });
  });
});
