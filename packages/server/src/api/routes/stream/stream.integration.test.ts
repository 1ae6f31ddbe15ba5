// GET /v1/stream against the devnet on both databases: real chain changes, indexed by the indexer, reach open
// streams; a disconnected client resumes from Last-Event-ID (or ?lastEventId=) with no gap and no repeat; filters
// select; the per-IP limit answers 429; heartbeats flow; a position past retention or unknown is reset; closing
// the server ends open streams.
import { demoKeypair, settlingWallet, type Wallet } from "@namereg/devnet";
import { nameNode, RegistrarFns, ResolverFns } from "@namereg/protocol";
import type { EventSourceMessage } from "eventsource-parser";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { TEST_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { openSse, type SseConnection } from "../../../../test/fixtures/sse.ts";
import { outboxBounds, pruneChanges } from "../../../db/outbox.ts";
import { type App, buildApp } from "../../app.ts";

const MAX_PER_IP = 4;

const bodyOf = (e: EventSourceMessage) =>
  JSON.parse(e.data) as { type: string; timestamp: string; data: Record<string, unknown> };

describe.each(TEST_DATABASE_KINDS)("GET /v1/stream on %s", (kind) => {
  let chain: IndexedDemoChain;
  let app: App;
  let base: string;
  let wallet: Wallet;
  const open: SseConnection[] = [];

  const stream = async (query = "", headers: Record<string, string> = {}) => {
    const conn = await openSse(`${base}/v1/stream${query}`, headers);
    open.push(conn);
    return conn;
  };
  const closeAll = async () => {
    for (const c of open.splice(0)) c.close();
    // The server counts a stream until it sees the connection go.
    for (let i = 0; i < 200 && (await probeOpen()) > 0; i++) await new Promise((r) => setTimeout(r, 25));
  };
  /** Open streams, as the server counts them (through the limit: MAX_PER_IP streams are allowed). */
  const probeOpen = async (): Promise<number> => {
    const probes: SseConnection[] = [];
    try {
      for (let n = 0; n < MAX_PER_IP; n++) {
        const c = await openSse(`${base}/v1/stream`);
        probes.push(c);
        if (c.status === 429) return n + 1;
      }
      return 0;
    } finally {
      for (const c of probes) c.close();
      await Promise.all(probes.map((c) => c.ended));
    }
  };

  const resolver = () => chain.devnet.demo?.namespaces.acme.resolver ?? "";
  const setText = async (key: string) => {
    await wallet.invoke(demoKeypair("alice"), resolver(), ResolverFns.set_text, {
      node: nameNode("alice", "acme"),
      key,
      value: "secret value",
    });
  };
  const index = () => runUntilIdle(chain.indexer);

  beforeAll(async () => {
    chain = await indexDemo(kind);
    wallet = settlingWallet(chain.devnet);
    app = await buildApp({
      config: testConfig({ STREAM_MAX_PER_IP: String(MAX_PER_IP), STREAM_HEARTBEAT_MS: "300" }),
      db: chain.database,
      redis: null,
    });
    base = await app.listen({ port: 0, host: "127.0.0.1" });
  }, 120_000); // indexing the demo: ~10 s alone, up to a minute on the loaded two-core machine

  // Every test starts with no stream open, whatever the last one left.
  afterEach(closeAll);

  afterAll(async () => {
    for (const c of open) c.close();
    await app?.close();
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  it("sends an indexed change with its chain coordinates, under headers that keep proxies out of the way", async () => {
    const s = await stream();
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(s.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(s.headers.get("x-accel-buffering")).toBe("no");
    expect(s.headers.get("content-encoding")).toBeNull();
    expect(s.headers.get("access-control-allow-origin")).toBe("*");
    await setText("first");
    await index();
    const [event] = await s.waitForEvents(1);
    if (event === undefined) throw new Error("no event");
    const body = bodyOf(event);
    expect(body).toMatchObject({
      type: "record.text_changed",
      data: {
        namespace: "acme",
        name: "alice.acme",
        node: nameNode("alice", "acme"),
        key: "first",
        backfill: false,
      },
    });
    expect(body.data.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.data.ledger).toBeGreaterThan(0);
    expect(body.data.eventId).toMatch(/^\d{19}-\d{10}$/);
    expect(event.data).not.toContain("secret value");
    expect(Number(event.id)).toBe((await outboxBounds(chain.database.db)).head);
  });

  it("resumes after a disconnect from Last-Event-ID or ?lastEventId= with no gap and no repeat", async () => {
    const a = await stream("?types=record.text_changed");
    await setText("a1");
    await setText("a2");
    await index();
    const seen = await a.waitForEvents(2);
    expect(seen.map((e) => bodyOf(e).data.key)).toEqual(["a1", "a2"]);
    const last = a.lastEventId();
    expect(last).toBe(seen[1]?.id);
    a.close();
    await a.ended;

    await setText("a3");
    await index();
    await setText("a4");
    await index();
    const byHeader = await stream("?types=record.text_changed", { "last-event-id": String(last) });
    const byQuery = await stream(`?types=record.text_changed&lastEventId=${last}`);
    await setText("a5");
    await index();
    for (const b of [byHeader, byQuery]) {
      const got = await b.waitForEvents(3);
      expect(got.map((e) => bodyOf(e).data.key)).toEqual(["a3", "a4", "a5"]);
      const ids = got.map((e) => Number(e.id));
      expect(ids[0]).toBeGreaterThan(Number(last));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    }
    // The header wins over the query (an EventSource reconnecting keeps its URL).
    const both = await stream(`?types=record.text_changed&lastEventId=0`, { "last-event-id": String(last) });
    expect((await both.waitForEvents(3)).map((e) => bodyOf(e).data.key)).toEqual(["a3", "a4", "a5"]);
  });

  it("starts a stream opened without Last-Event-ID from now, whatever changed while none was open", async () => {
    const first = await stream();
    first.close();
    await closeAll();
    await setText("unheard1");
    await setText("unheard2");
    await index();
    const s = await stream("?types=record.text_changed");
    await setText("heard");
    await index();
    await s.waitForEvents(1);
    await s.waitForComments(s.comments.length + 1);
    expect(s.events.map((e) => bodyOf(e).data.key)).toEqual(["heard"]);
  });

  it("selects by namespace, name and types", async () => {
    const all = await stream();
    const plain = await stream("?namespace=PLAIN");
    const alice = await stream("?name=alice.acme");
    const renewals = await stream("?types=name.renewed,namespace.transferred");
    await setText("f1");
    await wallet.invoke(
      demoKeypair("plain"),
      chain.devnet.demo?.namespaces.plain.registrar ?? "",
      RegistrarFns.set_subname_policy,
      { policy: "suspended" },
    );
    const twoYears = BigInt(Math.floor(Date.now() / 1000) + 2 * 365 * 86_400);
    await wallet.invoke(
      demoKeypair("acme"),
      chain.devnet.demo?.namespaces.acme.registrar ?? "",
      RegistrarFns.renew,
      { label: "bob", expiresAt: twoYears },
    );
    await index();
    expect((await all.waitForEvents(3)).map((e) => bodyOf(e).type)).toEqual([
      "record.text_changed",
      "namespace.policy_changed",
      "name.renewed",
    ]);
    // A heartbeat after the last change proves the hub is past it on every stream.
    for (const s of [plain, alice, renewals]) await s.waitForComments(s.comments.length + 1);
    expect(plain.events.map((e) => bodyOf(e))).toMatchObject([
      {
        type: "namespace.policy_changed",
        data: { namespace: "plain", policy: "subnames", subnames: "suspended" },
      },
    ]);
    expect(alice.events.map((e) => bodyOf(e))).toMatchObject([
      { type: "record.text_changed", data: { name: "alice.acme", key: "f1" } },
    ]);
    expect(renewals.events.map((e) => bodyOf(e))).toMatchObject([
      {
        type: "name.renewed",
        data: { name: "bob.acme", expiresAt: new Date(Number(twoYears) * 1000).toISOString() },
      },
    ]);
  });

  it("refuses unknown types, bad names and bad positions with 400", async () => {
    const unknown = await stream("?types=name.issued,name.exploded");
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({ error: "invalid_request" });
    expect(JSON.stringify(unknown.error)).toContain("name.exploded");
    expect((await stream("?namespace=-bad")).error).toMatchObject({ error: "invalid_name" });
    expect((await stream("?name=alice")).error).toMatchObject({ error: "invalid_name" });
    expect((await stream("", { "last-event-id": "x1" })).error).toMatchObject({ error: "invalid_request" });
    expect((await stream("?lastEventId=-1")).status).toBe(400);
    expect((await stream("?follow=1")).status).toBe(400);
    // HEAD would open a stream without a body to read it from.
    expect((await fetch(`${base}/v1/stream`, { method: "HEAD" })).status).toBe(405);
  });

  it("answers 429 beyond the open streams allowed per client address, and takes one again once one closes", async () => {
    const held = [];
    for (let i = 0; i < MAX_PER_IP; i++) held.push(await stream());
    expect(held.map((s) => s.status)).toEqual(Array(MAX_PER_IP).fill(200));
    const over = await stream();
    expect(over.status).toBe(429);
    expect(over.error).toEqual({
      error: "rate_limited",
      detail: `At most ${MAX_PER_IP} open streams per client address.`,
    });
    held[0]?.close();
    let again = await stream();
    for (let i = 0; i < 200 && again.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 25));
      again = await stream();
    }
    expect(again.status).toBe(200);
  });

  it("sends heartbeat comments on a quiet stream", async () => {
    const s = await stream();
    expect(await s.waitForComments(2)).toEqual(["heartbeat", "heartbeat"]);
    expect(s.events).toEqual([]);
  });

  it("resets a resume from a position it never gave, and from one past retention", async () => {
    const { head } = await outboxBounds(chain.database.db);
    const unknown = await stream(`?lastEventId=${head + 1000}`);
    const [reset] = await unknown.waitForEvents(1);
    expect(reset?.event).toBe("reset");
    expect(JSON.parse(reset?.data ?? "")).toEqual({
      reason: "unknown",
      lastEventId: String(head + 1000),
      position: String(head),
    });
    expect(unknown.lastEventId()).toBe(String(head));

    await pruneChanges(chain.database.db, new Date(Date.now() + 60_000));
    const expired = await stream("?lastEventId=1");
    const [gone] = await expired.waitForEvents(1);
    expect(gone?.event).toBe("reset");
    expect(JSON.parse(gone?.data ?? "")).toEqual({
      reason: "expired",
      lastEventId: "1",
      position: String(head),
    });
    // Then it goes on live from there.
    await setText("after_reset");
    await index();
    const [, next] = await expired.waitForEvents(2);
    expect(bodyOf(next as EventSourceMessage).data.key).toBe("after_reset");
  });

  it("ends open streams when the server closes", async () => {
    const other = await buildApp({ config: testConfig(), db: chain.database, redis: null });
    const url = await other.listen({ port: 0, host: "127.0.0.1" });
    const s = await openSse(`${url}/v1/stream`);
    expect(s.status).toBe(200);
    await other.close();
    await s.ended;
    s.close();
  });
});
