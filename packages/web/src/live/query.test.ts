import { QueryObserver } from "@tanstack/query-core";
import { afterEach, describe, expect, it } from "vitest";
import { queryClient, refresh } from "./query.ts";

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
