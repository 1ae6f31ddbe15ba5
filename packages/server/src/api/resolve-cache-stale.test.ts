// Stale-if-error (resolve-cache.ts): which dropped answers are kept aside for a resolve the mirror cannot answer.
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { Database, ListenOptions, Subscription } from "../db/types.ts";
import { type CachedResolution, foundAnswer, ResolveCache, wireInvalidation } from "./resolve-cache.ts";

const node = (n: number) => n.toString(16).padStart(64, "0");
const found = (name: string): CachedResolution => foundAnswer(name, `{"name":"${name}"}`, null);

function filled(options: ConstructorParameters<typeof ResolveCache>[0] = {}) {
  const cache = new ResolveCache(options);
  cache.set(node(1), "a.x", found("a.x"), cache.ticket());
  cache.set(node(2), "b.y", found("b.y"), cache.ticket());
  cache.set(node(3), "c.x", { kind: "missing" }, cache.ticket());
  return cache;
}

describe("stale answers", () => {
  it("keeps nothing aside while answers are live", () => {
    expect(filled().stale(node(1))).toBeUndefined();
  });

  it("keeps a found answer whose lifetime lapsed, not a missing one", () => {
    let now = 0;
    const cache = filled({ positiveTtlMs: 1000, negativeTtlMs: 1000, clock: () => now, jitter: () => 0 });
    now = 1000;
    expect(cache.get(node(1))).toBeUndefined();
    expect(cache.get(node(3))).toBeUndefined();
    expect(cache.stale(node(1))).toEqual(found("a.x"));
    expect(cache.stale(node(3))).toBeUndefined();
  });

  it("keeps found answers aside on retireAll, and forgets one when its node changes or is filled again", () => {
    const cache = filled();
    cache.retireAll();
    expect(cache.size).toBe(0);
    expect([cache.stale(node(1)), cache.stale(node(2)), cache.stale(node(3))]).toEqual([
      found("a.x"),
      found("b.y"),
      undefined,
    ]);
    cache.invalidate([node(1)]);
    expect(cache.stale(node(1))).toBeUndefined();
    cache.set(node(2), "b.y", found("b.y"), cache.ticket());
    expect(cache.stale(node(2))).toBeUndefined();
  });

  it("forgets a namespace's stale answers when the namespace changes, and all of them on clear", () => {
    const cache = filled();
    cache.retireAll();
    cache.invalidateNamespace("x");
    expect([cache.stale(node(1)), cache.stale(node(2))]).toEqual([undefined, found("b.y")]);
    cache.clear();
    expect(cache.stale(node(2))).toBeUndefined();
  });

  it("keeps at most maxEntries stale answers, the oldest going first", () => {
    const cache = new ResolveCache({ maxEntries: 2 });
    for (const n of [1, 2, 3]) {
      cache.set(node(n), `${n}.x`, found(`${n}.x`), cache.ticket());
      cache.retireAll();
    }
    expect([cache.stale(node(1)), cache.stale(node(2)), cache.stale(node(3))]).toEqual([
      undefined,
      found("2.x"),
      found("3.x"),
    ]);
  });

  it("are what a reconnect of the listening connection leaves; an unreadable payload leaves none", async () => {
    const heard: { onPayload?: (p: string) => void; options?: ListenOptions } = {};
    const database = {
      listen: async (_channel: string, onPayload: (p: string) => void, options?: ListenOptions) => {
        Object.assign(heard, { onPayload, options });
        return { close: async () => {} } satisfies Subscription;
      },
    } as unknown as Database;
    const cache = new ResolveCache();
    await wireInvalidation(cache, database, pino({ level: "silent" }));
    cache.set(node(1), "a.x", found("a.x"), cache.ticket());
    heard.options?.onReconnect?.();
    expect([cache.size, cache.stale(node(1))]).toEqual([0, found("a.x")]);
    heard.onPayload?.("garbage");
    expect(cache.stale(node(1))).toBeUndefined();
  });
});
