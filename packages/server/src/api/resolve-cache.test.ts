import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { NODE_CHANNEL } from "../db/node-changes.ts";
import type { Database, ListenOptions, Subscription } from "../db/types.ts";
import {
  type CachedResolution,
  foundAnswer,
  namespacesOfPayload,
  nodesOfPayload,
  pathKeyOf,
  ResolveCache,
  wireInvalidation,
} from "./resolve-cache.ts";

const node = (n: number) => n.toString(16).padStart(64, "0");
const found = (name: string): CachedResolution => foundAnswer(name, `{"name":"${name}"}`, null);
const missing: CachedResolution = { kind: "missing" };

describe("ResolveCache", () => {
  it("keeps at most maxEntries, evicting the least recently used", () => {
    const cache = new ResolveCache({ maxEntries: 2 });
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.set(node(2), "b.x", found("b.x"), cache.ticket());
    expect(cache.get(node(1))).toEqual(found("a.x")); // 1 is now the most recent
    cache.set(node(3), "c.x", found("c.x"), cache.ticket());
    expect(cache.size).toBe(2);
    expect(cache.get(node(2))).toBeUndefined();
    expect(cache.get(node(1))).toEqual(found("a.x"));
    expect(cache.get(node(3))).toEqual(found("c.x"));
  });

  it("keeps a negative answer for its TTL only and a found one for its longer TTL", () => {
    let now = 0;
    const cache = new ResolveCache({
      negativeTtlMs: 100,
      positiveTtlMs: 10_000,
      clock: () => now,
      jitter: () => 0,
    });
    cache.set(node(1), "missing.x", missing, cache.ticket());
    cache.set(node(2), "b.x", found("b.x"), cache.ticket());
    now = 99;
    expect(cache.get(node(1))).toEqual(missing);
    now = 100;
    expect(cache.get(node(1))).toBeUndefined();
    now = 9_999;
    expect(cache.get(node(2))).toEqual(found("b.x"));
    now = 10_000; // a lost notification leaves a found answer stale for one TTL at most
    expect(cache.get(node(2))).toBeUndefined();
  });

  it("shortens a found answer's lifetime by up to a fifth of its TTL, never a missing one's", () => {
    let now = 0;
    let jitter = 0.5;
    const cache = new ResolveCache({
      negativeTtlMs: 100,
      positiveTtlMs: 10_000,
      clock: () => now,
      jitter: () => jitter,
    });
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    jitter = 0.75;
    cache.set(node(2), "b.x", found("b.x"), cache.ticket());
    cache.set(node(3), "missing.x", missing, cache.ticket());
    now = 99;
    expect(cache.get(node(3))).toEqual(missing);
    now = 8_499;
    expect(cache.get(node(2))).toEqual(found("b.x"));
    now = 8_500; // 10,000 × (1 − 0.75 / 5)
    expect(cache.get(node(2))).toBeUndefined();
    now = 8_999;
    expect(cache.get(node(1))).toEqual(found("a.x"));
    now = 9_000; // 10,000 × (1 − 0.5 / 5)
    expect(cache.get(node(1))).toBeUndefined();
  });

  it("has a found answer still asked for in the last tenth of its lifetime re-read once, serving it meanwhile", async () => {
    let now = 0;
    const cache = new ResolveCache({ positiveTtlMs: 10_000, clock: () => now, jitter: () => 0 });
    const asked: string[] = [];
    let failing = false;
    cache.refreshWith(async (refreshed, name) => {
      asked.push(name);
      if (failing) throw new Error("database down");
      cache.set(refreshed, name, found(`${name}!`), cache.ticket());
    });
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.set(node(2), "missing.x", missing, cache.ticket());
    now = 8_999;
    expect(cache.hit("a.x")?.value).toEqual(found("a.x"));
    expect(asked).toEqual([]);
    now = 9_000;
    cache.get(node(2));
    expect(cache.hit("a.x")?.value).toEqual(found("a.x"));
    expect(asked).toEqual(["a.x"]);
    await Promise.resolve();
    // The re-read (stored at 9,000) replaced the answer and starts a lifetime of its own.
    now = 17_999;
    expect(cache.hit("a.x")?.value).toEqual(found("a.x!"));
    expect(asked).toEqual(["a.x"]);
    // A failed re-read is asked for once and leaves the answer to lapse.
    failing = true;
    now = 18_000;
    cache.hit("a.x");
    cache.hit("a.x");
    await Promise.resolve();
    expect(asked).toEqual(["a.x", "a.x"]);
    now = 18_999;
    expect(cache.hit("a.x")?.value).toEqual(found("a.x!"));
    expect(asked).toEqual(["a.x", "a.x"]);
    now = 19_000;
    expect(cache.hit("a.x")).toBeUndefined();
  });

  it("drops invalidated nodes, negative ones included, and everything on clear", () => {
    const cache = new ResolveCache();
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.set(node(2), "missing.x", missing, cache.ticket());
    cache.set(node(3), "c.x", found("c.x"), cache.ticket());
    cache.invalidate([node(1), node(2)]);
    expect([cache.get(node(1)), cache.get(node(2)), cache.get(node(3))]).toEqual([
      undefined,
      undefined,
      found("c.x"),
    ]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("does not store a fill that raced an invalidation", () => {
    const cache = new ResolveCache();
    const ticket = cache.ticket();
    cache.invalidate([node(1)]); // the change's notification arrives while the fill reads the old row
    cache.set(node(1), "stale.x", found("stale.x"), ticket);
    expect(cache.get(node(1))).toBeUndefined();
    cache.set(node(1), "fresh.x", found("fresh.x"), cache.ticket());
    expect(cache.get(node(1))).toEqual(found("fresh.x"));
  });

  it("finds answers by name too, and forgets the name with its node", () => {
    const cache = new ResolveCache({ maxEntries: 1 });
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    expect(cache.hit("a.x")).toMatchObject({ node: node(1), value: found("a.x") });
    cache.invalidate([node(1)]);
    expect(cache.hit("a.x")).toBeUndefined();
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.set(node(2), "b.x", found("b.x"), cache.ticket()); // evicts a.x (never read: no second chance)
    expect([cache.hit("a.x"), cache.hit("b.x")?.value]).toEqual([undefined, found("b.x")]);
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.hit("b.x")).toBeUndefined();
  });

  it("finds an answer by its resolve path `namespace/label` as by its name, and forgets both together", () => {
    const cache = new ResolveCache();
    cache.set(node(1), "alice.acme", found("alice.acme"), cache.ticket());
    expect(pathKeyOf("alice.acme")).toBe("acme/alice");
    expect(cache.hitPath("acme/alice")).toMatchObject({ node: node(1), value: found("alice.acme") });
    expect(cache.hitPath("alice/acme")).toBeUndefined();
    // Reissued under another node: both lookups find the new slot; dropping the old node keeps it.
    cache.set(node(2), "alice.acme", found("alice.acme!"), cache.ticket());
    cache.invalidate([node(1)]);
    expect(cache.hitPath("acme/alice")?.node).toBe(node(2));
    expect(cache.hit("alice.acme")?.node).toBe(node(2));
    cache.invalidateNamespace("acme");
    expect(cache.hitPath("acme/alice")).toBeUndefined();
  });

  it("stores nothing while disabled", () => {
    const cache = new ResolveCache();
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.setEnabled(false);
    expect(cache.size).toBe(0);
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    expect(cache.get(node(1))).toBeUndefined();
  });
});

describe("namespace-wide invalidation", () => {
  it("drops every answer of the namespace and nothing else", () => {
    const cache = new ResolveCache();
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    cache.set(node(2), "b.x", found("b.x"), cache.ticket());
    cache.set(node(3), "a.xx", found("a.xx"), cache.ticket());
    cache.set(node(4), "x.y", found("x.y"), cache.ticket());
    const ticket = cache.ticket();
    cache.invalidateNamespace("x");
    expect([1, 2, 3, 4].map((n) => cache.get(node(n)) !== undefined)).toEqual([false, false, true, true]);
    expect(cache.hit("a.x")).toBeUndefined();
    // A fill read before the change must not land after it.
    cache.set(node(1), "a.x", found("a.x"), ticket);
    expect(cache.get(node(1))).toBeUndefined();
  });

  it("reads ns:<label> items of a payload, ignoring anything else", () => {
    expect(namespacesOfPayload(`${node(1)},ns:acme,ns:Bad!,ns:`)).toEqual(["acme"]);
    expect(nodesOfPayload(`${node(1)},ns:acme`)).toEqual([node(1)]);
  });
});

describe("nodesOfPayload", () => {
  it("reads comma-separated 64-hex nodes and ignores anything else", () => {
    expect(nodesOfPayload(`${node(1)},${node(2)}`)).toEqual([node(1), node(2)]);
    expect(nodesOfPayload(`${node(1)},junk,`)).toEqual([node(1)]);
    expect(nodesOfPayload("")).toEqual([]);
  });
});

describe("wireInvalidation", () => {
  const log = pino({ level: "silent" });

  /** A database whose listen() records the subscriber, or fails. */
  function fakeDatabase(fail = false) {
    const heard: { channel?: string; onPayload?: (p: string) => void; options?: ListenOptions } = {};
    const database = {
      listen: async (channel: string, onPayload: (p: string) => void, options?: ListenOptions) => {
        if (fail) throw new Error("connection refused");
        Object.assign(heard, { channel, onPayload, options });
        return { close: async () => {} } satisfies Subscription;
      },
    } as unknown as Database;
    return { database, heard };
  }

  it("invalidates notified nodes and forgets everything on reconnect or an unreadable payload", async () => {
    const cache = new ResolveCache();
    const { database, heard } = fakeDatabase();
    expect(await wireInvalidation(cache, database, log)).not.toBeNull();
    expect(heard.channel).toBe(NODE_CHANNEL);
    const fill = () => {
      for (const n of [1, 2, 3]) cache.set(node(n), `${n}.x`, found(`${n}.x`), cache.ticket());
    };
    fill();
    heard.onPayload?.(`${node(1)},${node(2)}`);
    expect(cache.size).toBe(1);
    fill();
    heard.options?.onReconnect?.();
    expect(cache.size).toBe(0);
    fill();
    heard.onPayload?.("garbage");
    expect(cache.size).toBe(0);
    // A namespace-wide item drops that namespace's answers only.
    fill();
    cache.set(node(4), "4.y", found("4.y"), cache.ticket());
    heard.onPayload?.("ns:x");
    expect([cache.size, cache.hit("4.y")?.node]).toEqual([1, node(4)]);
  });

  it("leaves the cache off when it cannot listen", async () => {
    const cache = new ResolveCache();
    expect(await wireInvalidation(cache, fakeDatabase(true).database, log)).toBeNull();
    expect(cache.enabled).toBe(false);
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    expect(cache.size).toBe(0);
  });
});
