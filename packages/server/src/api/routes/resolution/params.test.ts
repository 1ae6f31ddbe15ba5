import { nameNode } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../errors.ts";
import { LABEL_RULE } from "../path-params.ts";
import { encodeHistoryCursor, HistoryQuery, historyCursor, holderAddress, nameRef } from "./params.ts";

const failure = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof ApiError) return { status: err.statusCode, body: err.body() };
    throw err;
  }
  throw new Error("did not throw");
};

describe("nameRef", () => {
  it("lower-cases ASCII and computes the node", () => {
    expect(nameRef({ namespace: "ACME", label: "Alice-1" })).toEqual({
      namespace: "acme",
      label: "alice-1",
      name: "alice-1.acme",
      node: nameNode("alice-1", "acme"),
    });
  });

  it("rejects what lower-casing cannot make a label, naming the segment", () => {
    const rule = LABEL_RULE;
    expect(failure(() => nameRef({ namespace: "acme", label: "alice." }))).toEqual({
      status: 400,
      body: { error: "invalid_name", detail: `label: ${rule}` },
    });
    // Unicode is never folded: "İ" does not become "i".
    expect(failure(() => nameRef({ namespace: "İacme", label: "alice" }))).toEqual({
      status: 400,
      body: { error: "invalid_name", detail: `namespace: ${rule}` },
    });
    for (const label of ["", "-a", "a-", "a".repeat(64), "a b"]) {
      expect(failure(() => nameRef({ namespace: "acme", label })).body).toMatchObject({
        error: "invalid_name",
      });
    }
  });
});

describe("holderAddress", () => {
  it("accepts G and C addresses only", () => {
    const g = "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7";
    expect(holderAddress(g)).toBe(g);
    const c = "CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE";
    expect(holderAddress(c)).toBe(c);
    for (const bad of ["", g.toLowerCase(), `${g}A`, "alice.acme"]) {
      expect(failure(() => holderAddress(bad)).body).toMatchObject({ error: "bad_address" });
    }
  });
});

describe("history paging", () => {
  const node = nameNode("gone", "acme");

  it("round-trips a cursor for its own name only", () => {
    const eventId = "0000000055834578944-0000000001";
    const cursor = encodeHistoryCursor(eventId, node);
    expect(historyCursor(cursor, node)).toBe(eventId);
    expect(failure(() => historyCursor(cursor, nameNode("alice", "acme"))).body).toEqual({
      error: "invalid_request",
      detail: "cursor: belongs to another name's history",
    });
    // A version 1 cursor (a row id, insertion order) from before the upgrade is malformed now.
    const rowIdCursor = Buffer.from(JSON.stringify({ v: 1, before: 42, n: node.slice(0, 16) })).toString(
      "base64url",
    );
    const notAnEventId = Buffer.from(JSON.stringify({ v: 2, before: "42", n: node.slice(0, 16) })).toString(
      "base64url",
    );
    for (const bad of [
      "",
      "!!",
      Buffer.from("{}").toString("base64url"),
      cursor.slice(0, -2),
      rowIdCursor,
      notAnEventId,
    ]) {
      expect(failure(() => historyCursor(bad, node)).body).toMatchObject({ error: "invalid_request" });
    }
  });

  it("defaults limit to 100 and keeps it within 1 to 100", () => {
    expect(HistoryQuery.parse({})).toEqual({ limit: 100 });
    expect(HistoryQuery.parse({ limit: "7", cursor: "x" })).toEqual({ limit: 7, cursor: "x" });
    for (const limit of ["0", "101", "-1", "1.5", ["1", "2"]]) {
      expect(HistoryQuery.safeParse({ limit }).success).toBe(false);
    }
    expect(HistoryQuery.safeParse({ page: "2" }).success).toBe(false);
  });
});
