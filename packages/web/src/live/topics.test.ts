import { describe, expect, it } from "vitest";
import { concerns } from "./topics.ts";

const text = {
  type: "record.text_changed",
  data: { namespace: "acme", name: "alice.acme", key: "url", ledger: 41 },
};

describe("which cached reads a change concerns", () => {
  it("reads of its namespace, names in it and its name", () => {
    expect(concerns(text, "h:alice.acme")).toBe(true);
    expect(concerns(text, "r:alice.acme:0")).toBe(true);
    expect(concerns(text, "ns:acme")).toBe(true);
    expect(concerns(text, "s:bob.acme")).toBe(true);
    expect(concerns(text, "pol:acme:true:0")).toBe(true);
  });

  it("not reads of another namespace, nor lists of another kind", () => {
    expect(concerns(text, "ns:plain")).toBe(false);
    expect(concerns(text, "h:carol.plain")).toBe(false);
    expect(concerns(text, "listings")).toBe(false);
    expect(concerns(text, "allocations")).toBe(false);
    // "acme" inside another label is not acme.
    expect(concerns(text, "h:alice.acmex")).toBe(false);
  });

  it("the service's status, whatever the change: each moves the processed ledger", () => {
    expect(concerns(text, "status")).toBe(true);
    expect(concerns({ type: "market.sold", data: { namespace: "plain" } }, "status")).toBe(true);
    expect(concerns({ type: "claim.announced", data: {} }, "status")).toBe(true);
    // Only that read: "status" inside another key's subject is no status.
    expect(concerns(text, "h:status.plain")).toBe(false);
  });

  it("the accounts it names, by address", () => {
    const issued = { type: "name.issued", data: { namespace: "acme", name: "dan.acme", holder: "GDAN" } };
    expect(concerns(issued, "held:GDAN")).toBe(true);
    expect(concerns(issued, "held:GBOB")).toBe(false);
    const primary = {
      type: "primary.changed",
      data: { namespace: "acme", address: "GBOB", primary: "bob.acme", previous: null },
    };
    expect(concerns(primary, "rev:GBOB")).toBe(true);
  });

  it("the lists a kind of change belongs to, whatever their key", () => {
    const listed = { type: "market.listed", data: { namespace: "plain", seller: "GPLAIN", priceXlm: "250" } };
    expect(concerns(listed, "listings")).toBe(true);
    expect(concerns(listed, "listings:3")).toBe(true);
    expect(concerns(listed, "ns:plain:0")).toBe(true);
    const announced = { type: "claim.announced", data: { namespace: "newco", claimId: "4" } };
    expect(concerns(announced, "allocations:2")).toBe(true);
    expect(concerns(announced, "listings")).toBe(false);
  });

  it("not the previous owner's console reads when the namespace changes hands", () => {
    const sold = { type: "market.sold", data: { namespace: "forsale", seller: "GS", buyer: "GB" } };
    expect(concerns(sold, "bill:forsale:GS:0")).toBe(false);
    expect(concerns(sold, "pol:forsale:true:0")).toBe(true);
    expect(concerns(sold, "ns:forsale")).toBe(true);
    const policy = { type: "namespace.policy_changed", data: { namespace: "acme", policy: "subnames" } };
    expect(concerns(policy, "bill:acme:GA:0")).toBe(true);
  });
});
