// Clients that open /v1/stream from the start of a long outbox and never read (docs/api.md "GET /v1/stream"):
// each is cut off — its connection reset, its buffers dropped — once more than MAX_BUFFERED_BYTES wait for it;
// its address's slot is free only when its connection is gone, so no more than STREAM_MAX_PER_IP of them are ever
// open at once; the process grows by no more than those buffers.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { openSse } from "../../../../test/fixtures/sse.ts";
import type { ChangeDraft } from "../../../changes/catalogue.ts";
import { appendChanges } from "../../../db/outbox.ts";
import { type App, buildApp } from "../../app.ts";
import { MAX_BUFFERED_BYTES } from "./hub.ts";

const CHANGES = 30_000;
const MAX_PER_IP = 10;
const CLIENTS = 20;
/**
 * The process's own passing work on top of the buffers the streams may hold: the backlog's pages read and encoded for
 * 20 clients at once. Quiet it is 1–4 MiB; with the CPU starved by a full test run it reached 11.3 MiB in one CI run
 * and 53 MiB (with the buffers) in another (2026-12-02). The code before the per-stream bound grew ~5.9 MB per stream,
 * ~118 MB for these 20 clients, far past the 66 MiB this allows in all.
 */
const TRANSIENT_ALLOWANCE = 56 * 2 ** 20;

let database: TestDatabase;
let app: App;
let port = 0;
/** The server's side of every connection, by the client's port. */
const serverSockets = new Map<number, Socket>();

beforeAll(async () => {
  database = await createTestDatabase("postgres");
  const at = new Date();
  for (let from = 0; from < CHANGES; from += 1000) {
    const drafts: ChangeDraft[] = Array.from({ length: 1000 }, (_, i) => ({
      namespace: "acme",
      type: "record.text_changed",
      name: `n${from + i}.acme`,
      data: { key: `description-${from + i}` },
      ledger: 1000 + from + i,
      txHash: "ab".repeat(32),
      eventId: `ev-${from + i}`,
      at,
    }));
    await database.db.transaction((tx) => appendChanges(tx, drafts));
  }
  app = await buildApp({
    config: testConfig({ STREAM_MAX_PER_IP: String(MAX_PER_IP) }),
    db: database,
    redis: null,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
  app.server.on("connection", (socket: Socket) => {
    const client = socket.remotePort ?? 0;
    serverSockets.set(client, socket);
    socket.on("close", () => serverSockets.delete(client));
  });
}, 300_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** A client that sends its request, reads the status line, and never reads again. */
function stalledStream(): Promise<{ socket: Socket; status: number; port: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    // Small buffers on its side, as a slow client's would be.
    socket.on("connect", () => {
      socket.write("GET /v1/stream HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 0\r\nConnection: close\r\n\r\n");
    });
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1]);
      resolve({ socket, status, port: socket.localPort ?? 0 });
    });
    socket.on("error", () => undefined);
    socket.once("close", () => reject(new Error("closed before answering")));
  });
}

const rss = () => process.memoryUsage().rss;

it("cuts non-reading streams off, never more than the per-address limit open, memory bounded", async () => {
  // Warm-up: one client reads the whole backlog, so the heap has grown for the work before the baseline.
  const reader = await openSse(`http://127.0.0.1:${port}/v1/stream`, { "last-event-id": "0" });
  await reader.waitForEvents(CHANGES, 120_000);
  reader.close();
  await reader.ended;
  while (serverSockets.size > 0) await new Promise((r) => setTimeout(r, 20));
  global.gc?.();
  const baseline = rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 10);

  const established: number[] = [];
  let mostOpen = 0;
  const clients: Socket[] = [];
  try {
    for (let i = 0; i < CLIENTS; i++) {
      const stream = await stalledStream();
      clients.push(stream.socket);
      if (stream.status === 200) established.push(stream.port);
      else expect(stream.status).toBe(429);
      // Open now, at the server: the streams answered 200 whose connections it still holds.
      mostOpen = Math.max(mostOpen, established.filter((p) => serverSockets.has(p)).length);
    }
    expect(established.length).toBeGreaterThanOrEqual(MAX_PER_IP);
    expect(mostOpen).toBeLessThanOrEqual(MAX_PER_IP);
    // Every stream answered 200 is cut off (its connection gone at the server), none left hanging.
    while (established.some((p) => serverSockets.has(p))) await new Promise((r) => setTimeout(r, 20));
  } finally {
    clearInterval(sampler);
    for (const socket of clients) socket.destroy();
  }
  // What the streams may hold waiting (MAX_BUFFERED_BYTES each), plus the process's own passing work (see
  // TRANSIENT_ALLOWANCE; RSS, with no forced GC in a worker).
  expect(peak - baseline).toBeLessThanOrEqual(MAX_PER_IP * MAX_BUFFERED_BYTES + TRANSIENT_ALLOWANCE);
}, 600_000);
