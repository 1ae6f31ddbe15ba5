// Errors by meaning: the API's code becomes a sentence; the detail stays for a report.
import { NameregError } from "@namereg/client";
import { describe, expect, it } from "vitest";
import { explain } from "./errors.ts";

describe("explain", () => {
  it("says what the spec's codes mean instead of the status", () => {
    expect(explain(new NameregError(404, { error: "name_expired", detail: "old.acme expired" }))).toEqual({
      code: "name_expired",
      sentence: "This name has expired; its records no longer resolve.",
      detail: "old.acme expired",
    });
    expect(explain(new NameregError(409, { error: "no_resolver" })).sentence).toBe(
      "This namespace has no resolver, so its names carry no records.",
    );
    expect(explain(new NameregError(404, { error: "name_not_found" })).sentence).toBe(
      "There is no such name.",
    );
    expect(explain(new NameregError(502, { error: "node_lookup_failed" })).sentence).toBe(
      "The name's records could not be read from the chain right now. Try again shortly.",
    );
  });

  it("does not tell a reclaimed name (gone.acme, whose history lists issued and reclaimed) it was never issued", () => {
    const sentence = explain(new NameregError(404, { error: "name_not_issued", name: "gone.acme" })).sentence;
    expect(sentence).toBe("This name is not issued now: it was never issued, or it was reclaimed.");
    expect(sentence).not.toMatch(/no history/);
  });

  it("names an unlisted code rather than hiding it, and explains a fault in the page", () => {
    expect(explain(new NameregError(409, { error: "namespace_changed" })).sentence).toBe(
      "The service refused the request (namespace_changed).",
    );
    expect(explain(new TypeError("x is undefined"))).toEqual({
      code: "unknown_error",
      sentence: "Something went wrong in the page.",
      detail: "x is undefined",
    });
  });
});
