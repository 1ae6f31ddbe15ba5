// The per-client cap on open streams (STREAM_MAX_PER_IP) counts a client as the rate limits do: an IPv6 client by
// its /64, which it holds whole (rotating the interface part must not open a stream past the cap), and an
// IPv4-mapped address (a dual-stack listener) as the IPv4 address it is.
import { afterAll, beforeAll, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { type App, buildApp } from "../../app.ts";

let database: TestDatabase;
let app: App;
/** Streams left open, each ended at the test's end. */
const streams: { destroy(): void }[] = [];

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  app = await buildApp({ config: testConfig({ STREAM_MAX_PER_IP: "2" }), db: database, redis: null });
});

afterAll(async () => {
  for (const s of streams) s.destroy();
  await app?.close();
  await database?.close();
});

/** Opens a stream from `remoteAddress`: its status once the head is written (an open stream never ends). */
async function open(remoteAddress: string): Promise<number> {
  const response = await app.inject({ url: "/v1/stream", remoteAddress, payloadAsStream: true });
  const body = response.stream();
  streams.push(body);
  body.resume();
  // The hub counts a stream from its first write on; let it settle before the next request.
  await new Promise((r) => setTimeout(r, 20));
  return response.statusCode;
}

it("refuses a stream past the cap from another address of the same IPv6 /64", async () => {
  expect(await open("2001:db8:5:1::1")).toBe(200);
  expect(await open("2001:db8:5:1::2")).toBe(200);
  expect(await open("2001:db8:5:1:abcd::3")).toBe(429);
  // Another /64 is another client.
  expect(await open("2001:db8:5:2::1")).toBe(200);
});

it("counts an IPv4-mapped address as the IPv4 address", async () => {
  expect(await open("192.0.2.60")).toBe(200);
  expect(await open("::ffff:192.0.2.60")).toBe(200);
  expect(await open("::ffff:192.0.2.60")).toBe(429);
});
