import { describe, expect, it } from "vitest";
import { formatName, isValidLabel, labelProblem, normaliseLabel, parseName } from "./labels.ts";

describe("labels", () => {
  it("accepts 1–63 characters of a-z, 0-9 and inner hyphens", () => {
    for (const ok of ["a", "alice", "0", "a-b", "x1-2-3", "a".repeat(63), "xn--bcher-kva"]) {
      expect(isValidLabel(ok), ok).toBe(true);
    }
  });

  it("names the problem with a rejected label", () => {
    expect(labelProblem("")).toBe("empty");
    expect(labelProblem("a".repeat(64))).toBe("too_long");
    expect(labelProblem("Alice")).toBe("invalid_character");
    expect(labelProblem("al_ice")).toBe("invalid_character");
    expect(labelProblem("alicé")).toBe("invalid_character");
    expect(labelProblem("a.b")).toBe("invalid_character");
    expect(labelProblem("-alice")).toBe("hyphen_at_edge");
    expect(labelProblem("alice-")).toBe("hyphen_at_edge");
  });

  it("normalises ASCII upper case only", () => {
    expect(normaliseLabel("ALICE")).toBe("alice");
    expect(normaliseLabel("Bob-2")).toBe("bob-2");
    // U+212A KELVIN SIGN lower-cases to "k" under Unicode rules; it must not become a valid label.
    expect(normaliseLabel("\u212Aey")).toBeNull();
    expect(normaliseLabel("bad label")).toBeNull();
  });

  it("parses names at three depths and formats them back", () => {
    expect(parseName("acme")).toEqual({ kind: "namespace", namespace: "acme" });
    expect(parseName("alice.acme")).toEqual({ kind: "name", label: "alice", namespace: "acme" });
    const sub = parseName("pay.alice.acme");
    expect(sub).toEqual({ kind: "subname", child: "pay", label: "alice", namespace: "acme" });
    expect(sub && formatName(sub)).toBe("pay.alice.acme");
    expect(parseName("a.b.c.d")).toBeNull();
    expect(parseName("Alice.acme")).toBeNull();
    expect(parseName(".acme")).toBeNull();
  });
});
