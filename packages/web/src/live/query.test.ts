import { NameregError } from "@namereg/client";
import { environmentManager, focusManager, QueryObserver } from "@tanstack/query-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { coalescedWait, queryClient, RETRY_FAILED_MS, readOptions, refresh, retryFailed } from "./query.ts";

/** A read whose answers the test hands out one by one, in the order the reads were asked. */
function scriptedRead() {
  const waiting: Array<(value: string) => void> = [];
  return {
    asked: () => waiting.length,
    load: () => new Promise<string>((resolve) => waiting.push(resolve)),
    answer: (n: number, value: string) => waiting[n]?.(value),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("refresh", () => {
  afterEach(() => queryClient.clear());

  it("asks a shown read again when its first answer, maybe read before the change, is still on its way", async () => {
    const read = scriptedRead();
    const observer = new QueryObserver(queryClient, { queryKey: ["pol:acme"], queryFn: read.load });
    const seen: unknown[] = [];
    const stop = observer.subscribe((result) => seen.push(result.data));
    await settle();
    expect(read.asked()).toBe(1);
    refresh((key) => key.startsWith("pol:"));
    await settle();
    expect(read.asked()).toBe(2);
    // The answer read before the change arrives last, and is not the one shown.
    read.answer(1, "creation-disabled");
    read.answer(0, "enabled");
    await settle();
    expect(observer.getCurrentResult().data).toBe("creation-disabled");
    expect(seen).not.toContain("enabled");
    stop();
  });

  it("asks again a read that has an answer, and leaves the reads it does not pick", async () => {
    const mine = scriptedRead();
    const other = scriptedRead();
    const a = new QueryObserver(queryClient, { queryKey: ["pol:acme"], queryFn: mine.load });
    const b = new QueryObserver(queryClient, { queryKey: ["ns:plain"], queryFn: other.load });
    const stops = [a.subscribe(() => {}), b.subscribe(() => {})];
    await settle();
    mine.answer(0, "enabled");
    other.answer(0, "plain");
    await settle();
    refresh((key) => key.startsWith("pol:"));
    await settle();
    expect([mine.asked(), other.asked()]).toEqual([2, 1]);
    mine.answer(1, "suspended");
    await settle();
    expect(a.getCurrentResult().data).toBe("suspended");
    expect(b.getCurrentResult().data).toBe("plain");
    for (const stop of stops) stop();
  });
});

/** A polled read ("status") and one the stream keeps fresh ("ns:acme"), both shown; `stops` unsubscribes them. */
function polledBesideStreamed() {
  const polled = scriptedRead();
  const other = scriptedRead();
  const a = new QueryObserver(
    queryClient,
    readOptions("status", polled.load, true, { everyMs: 60_000, gapMs: 2000 }),
  );
  const b = new QueryObserver(queryClient, readOptions("ns:acme", other.load, true));
  return { polled, other, stops: [a.subscribe(() => {}), b.subscribe(() => {})] };
}

describe("a polled read", () => {
  afterEach(() => {
    queryClient.clear();
    vi.useRealTimers();
  });

  it("is asked again on a timer while the tab is visible, and at once when it is shown again", () => {
    const load = () => Promise.resolve("status");
    expect(readOptions("status", load, true, { everyMs: 5000, gapMs: 2000 })).toMatchObject({
      refetchInterval: 5000,
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: true,
      meta: { gapMs: 2000 },
    });
    // A read the stream keeps fresh has no timer but while its last read failed without an answer.
    const plain = readOptions("ns:acme", load, true);
    expect(plain.refetchInterval).toBe(retryFailed);
    expect(plain.meta).toBeUndefined();
  });

  it("is asked again when the tab is shown again; a read the stream keeps fresh is not", async () => {
    const { polled, other, stops } = polledBesideStreamed();
    await settle();
    polled.answer(0, "ledger 10");
    other.answer(0, "acme");
    await settle();
    try {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
      await settle();
    } finally {
      focusManager.setFocused(undefined);
    }
    expect([polled.asked(), other.asked()]).toEqual([2, 1]);
    for (const stop of stops) stop();
  });

  it("waits out its gap after its last answer, a whole gap while a read is under way", () => {
    expect(coalescedWait(10_000, 5_000, false, 2000)).toBe(0);
    expect(coalescedWait(10_000, 9_500, false, 2000)).toBe(1500);
    expect(coalescedWait(10_000, 9_999, true, 2000)).toBe(2000);
  });

  it("reads once per gap for a burst of changes, and once after a change heard during a read", async () => {
    vi.useFakeTimers();
    const read = scriptedRead();
    const observer = new QueryObserver(
      queryClient,
      readOptions("status", read.load, true, { everyMs: 60_000, gapMs: 2000 }),
    );
    const stop = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(read.asked()).toBe(1);
    // Changes heard while the first read is under way: that read may have left before them.
    refresh();
    refresh((key) => key === "status");
    await vi.advanceTimersByTimeAsync(1000);
    read.answer(0, "ledger 10");
    await vi.advanceTimersByTimeAsync(999);
    expect(read.asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read.asked()).toBe(2);
    read.answer(1, "ledger 11");
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data).toBe("ledger 11");
    // Ten changes within the gap after that answer: one read, at the gap's end.
    for (let n = 0; n < 10; n++) {
      refresh();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(read.asked()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(read.asked()).toBe(3);
    read.answer(2, "ledger 12");
    // Long after its last answer, a change asks it at once.
    await vi.advanceTimersByTimeAsync(10_000);
    refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(read.asked()).toBe(4);
    stop();
  });

  it("leaves the stream's reads asked at once", async () => {
    vi.useFakeTimers();
    const { polled, other, stops } = polledBesideStreamed();
    await vi.advanceTimersByTimeAsync(0);
    polled.answer(0, "ledger 10");
    other.answer(0, "acme");
    await vi.advanceTimersByTimeAsync(0);
    refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect([polled.asked(), other.asked()]).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(2000);
    expect([polled.asked(), other.asked()]).toEqual([2, 2]);
    for (const stop of stops) stop();
  });
});

describe("a read that failed without an answer", () => {
  afterEach(() => {
    queryClient.clear();
    vi.useRealTimers();
    environmentManager.setIsServer(() => typeof window === "undefined");
  });

  it("is asked again by itself until it gets one; a refusal is an answer and is not", async () => {
    vi.useFakeTimers();
    // query-core runs no timers where there is no window (this test's Node): here it runs them as a browser does.
    environmentManager.setIsServer(() => false);
    const failures: unknown[] = [new TypeError("Failed to fetch"), new TypeError("Failed to fetch")];
    let asked = 0;
    const load = () => {
      asked++;
      const failure = failures.shift();
      return failure === undefined ? Promise.resolve(`answer ${asked}`) : Promise.reject(failure);
    };
    const observer = new QueryObserver(queryClient, readOptions("ns:acme", load, true));
    const stop = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect([asked, observer.getCurrentResult().status]).toEqual([1, "error"]);
    await vi.advanceTimersByTimeAsync(RETRY_FAILED_MS);
    expect(asked).toBe(2);
    await vi.advanceTimersByTimeAsync(RETRY_FAILED_MS);
    expect([asked, observer.getCurrentResult().data]).toEqual([3, "answer 3"]);
    // Answered: no timer any more (the stream keeps it fresh).
    await vi.advanceTimersByTimeAsync(RETRY_FAILED_MS * 4);
    expect(asked).toBe(3);
    stop();
  });

  it("has no timer when the service answered with a refusal", () => {
    const refused = new NameregError(404, { error: "name_not_found", detail: "no such name" });
    const failed = new NameregError(503, { error: "database_unavailable", detail: "down" });
    expect(retryFailed({ state: { status: "error", error: refused } } as never)).toBe(false);
    expect(retryFailed({ state: { status: "error", error: failed } } as never)).toBe(RETRY_FAILED_MS);
    expect(retryFailed({ state: { status: "success", error: null } } as never)).toBe(false);
  });
});
