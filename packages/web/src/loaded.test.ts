import { NameregError } from "@namereg/client";
import { describe, expect, it } from "vitest";
import { isAnswer, loadedOf } from "./loaded.ts";

const readAt = Date.parse("2026-11-21T17:25:14.549Z");
const failed = (error: unknown, data: string | undefined) =>
  loadedOf({ status: "error", data, error, dataUpdatedAt: data === undefined ? 0 : readAt });

describe("what a read has to show", () => {
  it("its answer, or loading before the first", () => {
    expect(loadedOf({ status: "success", data: "ledger 10", error: null, dataUpdatedAt: readAt })).toEqual({
      state: "ok",
      value: "ledger 10",
    });
    expect(loadedOf({ status: "pending", data: undefined, error: null, dataUpdatedAt: 0 })).toEqual({
      state: "loading",
    });
  });

  it("keeps the answer shown when a read again gets no answer, saying why and when it was read", () => {
    const offline = new NameregError(0, { error: "network_error", detail: "Failed to fetch" });
    expect(failed(offline, "ledger 10")).toEqual({
      state: "ok",
      value: "ledger 10",
      stale: {
        error: {
          code: "network_error",
          sentence: "The service could not be reached. Check the connection and try again.",
          detail: "Failed to fetch",
        },
        readAt: "2026-11-21T17:25:14.549Z",
      },
    });
    expect(failed(new NameregError(503, { error: "database_unavailable" }), "ledger 10")).toMatchObject({
      state: "ok",
      stale: { error: { code: "database_unavailable" } },
    });
    expect(failed(new NameregError(429, { error: "rate_limited" }), "ledger 10")).toMatchObject({
      state: "ok",
      stale: { error: { code: "rate_limited" } },
    });
  });

  it("says the service's answer about the thing instead (not found), and an error with nothing to keep", () => {
    expect(failed(new NameregError(404, { error: "name_not_found" }), "alice.acme")).toEqual({
      state: "error",
      error: { code: "name_not_found", sentence: "There is no such name.", detail: undefined },
    });
    expect(failed(new NameregError(0, { error: "network_error" }), undefined)).toMatchObject({
      state: "error",
      error: { code: "network_error" },
    });
  });

  it("counts only a 4xx other than 429 as an answer", () => {
    expect(isAnswer(new NameregError(409, { error: "listing_exists" }))).toBe(true);
    expect(isAnswer(new NameregError(429, { error: "rate_limited" }))).toBe(false);
    expect(isAnswer(new NameregError(500, { error: "internal_error" }))).toBe(false);
    expect(isAnswer(new Error("boom"))).toBe(false);
  });
});
