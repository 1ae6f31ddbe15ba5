// What runs against namereg while its database fails over (suite.ts): a wallet changing text records one signed
// transaction at a time, readers asking a few routes in loops, a `/v1/stream` client that reconnects with
// Last-Event-ID whenever its stream ends, and a webhook receiver recording each delivery's `webhook-id`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { demoKeypair, type NamingDevnet, settlingWallet } from "@namereg/devnet";
import { nameNode, ResolverFns } from "@namereg/protocol";
import { openSse } from "@namereg/server/testing";

/** A request not answered within this long counts as a hang. */
const HANG_MS = 6_000;

export interface Writer {
  /** Keys written so far, in order, each confirmed on chain. */
  readonly written: string[];
  readonly errors: string[];
  /** Stops after the transaction in flight; resolves when it is done. */
  stop(): Promise<void>;
}

/** `bob` changes a text record of bob.acme, key `f<i>`, one confirmed transaction after another. */
export function startWriter(devnet: NamingDevnet, pauseMs = 100): Writer {
  const wallet = settlingWallet(devnet);
  const resolver = devnet.demo?.namespaces.acme.resolver ?? "";
  const written: string[] = [];
  const errors: string[] = [];
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const key = `f${i}`;
      try {
        await wallet.invoke(demoKeypair("bob"), resolver, ResolverFns.set_text, {
          node: nameNode("bob", "acme"),
          key,
          value: `v${i}`,
        });
        written.push(key);
      } catch (error) {
        errors.push(`${key}: ${(error as Error).message}`);
      }
      await sleep(pauseMs);
    }
  })();
  return {
    written,
    errors,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

export interface RouteFigures {
  /** Answers by status code (`hang` for none within HANG_MS, `error` for a refused connection). */
  readonly byStatus: Record<string, number>;
}

export interface Readers {
  readonly routes: Record<string, RouteFigures>;
  /** Answers other than 200 or a well-formed 503 (`database_unavailable` with Retry-After), and resolve answers
   * of the pre-cached name other than its 200 body: what, when (seconds from the start). */
  readonly bad: string[];
  /** Per second from the start: 200s and 503s. */
  readonly timeline: Map<number, [number, number]>;
  stop(): Promise<void>;
}

/**
 * `clients` loops, each asking every path in turn. `expected` maps a path to the only body it may answer (the
 * pre-cached name's resolve: always 200, always that body).
 */
export function startReaders(
  base: string,
  paths: readonly string[],
  clients: number,
  expected: ReadonlyMap<string, string>,
): Readers {
  const routes: Record<string, { byStatus: Record<string, number> }> = {};
  for (const path of paths) routes[path] = { byStatus: {} };
  const bad: string[] = [];
  const timeline = new Map<number, [number, number]>();
  const started = performance.now();
  let stopped = false;
  const ask = async (path: string) => {
    const at = (performance.now() - started) / 1000;
    let status: string;
    try {
      const response = await fetch(base + path, { signal: AbortSignal.timeout(HANG_MS) });
      const body = await response.text();
      status = String(response.status);
      const must = expected.get(path);
      if (must !== undefined && (response.status !== 200 || body !== must))
        bad.push(`${at.toFixed(1)} s ${path}: ${response.status} ${body.slice(0, 120)}`);
      else if (response.status === 503) {
        if (JSON.parse(body).error !== "database_unavailable" || response.headers.get("retry-after") === null)
          bad.push(`${at.toFixed(1)} s ${path}: 503 ${body.slice(0, 120)}`);
      } else if (response.status !== 200)
        bad.push(`${at.toFixed(1)} s ${path}: ${status} ${body.slice(0, 120)}`);
    } catch (error) {
      status = (error as Error).name === "TimeoutError" ? "hang" : "error";
      bad.push(`${at.toFixed(1)} s ${path}: ${status}`);
    }
    const figures = routes[path];
    if (figures !== undefined) figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
    const second = Math.floor(at);
    const slot = timeline.get(second) ?? [0, 0];
    if (status === "200") slot[0]++;
    if (status === "503") slot[1]++;
    timeline.set(second, slot);
  };
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let i = c; !stopped; i++) {
      await ask(paths[i % paths.length] ?? "/health");
      await sleep(20);
    }
  });
  return {
    routes,
    bad,
    timeline,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

export interface StreamClient {
  /** Every event id received, in order, over every connection. */
  readonly ids: number[];
  /** Event ids with the record key each carried. */
  readonly keys: Map<number, string>;
  /** Connections opened (1 + reconnects) and answers other than 200 when reconnecting. */
  readonly connections: number;
  readonly refused: number;
  stop(): void;
}

/** A `/v1/stream` client of `types` from the position `from`, reconnecting (Last-Event-ID) whenever it ends. */
export function startStream(base: string, types: string, from: number): StreamClient {
  const state = { ids: [] as number[], keys: new Map<number, string>(), connections: 0, refused: 0 };
  let stopped = false;
  let close: () => void = () => undefined;
  let last = String(from);
  void (async () => {
    while (!stopped) {
      try {
        const sse = await openSse(`${base}/v1/stream?types=${types}`, { "last-event-id": last });
        state.connections++;
        close = sse.close;
        if (sse.status !== 200) state.refused++;
        else {
          let seen = 0;
          const take = () => {
            for (; seen < sse.events.length; seen++) {
              const event = sse.events[seen];
              if (event?.id === undefined) continue;
              state.ids.push(Number(event.id));
              state.keys.set(Number(event.id), JSON.parse(event.data).data.key as string);
            }
          };
          while (
            !stopped &&
            !(await Promise.race([sse.ended.then(() => true), sleep(100).then(() => false)]))
          )
            take();
          take();
          last = sse.lastEventId() ?? last;
        }
        sse.close();
      } catch {
        state.refused++;
      }
      if (!stopped) await sleep(500);
    }
  })();
  return {
    ids: state.ids,
    keys: state.keys,
    get connections() {
      return state.connections;
    },
    get refused() {
      return state.refused;
    },
    stop: () => {
      stopped = true;
      close();
    },
  };
}

export interface WebhookReceiver {
  readonly url: string;
  /** `webhook-id` of every delivery received, duplicates included, and the record key each carried. */
  readonly deliveries: { id: string; key: string }[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: { id: string; key: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { key?: string } };
      deliveries.push({ id: String(request.headers["webhook-id"]), key: body.data?.key ?? "" });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
