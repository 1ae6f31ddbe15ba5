// The client's change types are the document's webhooks, in the document's order, and the union narrows on `type`.
import { readFile } from "node:fs/promises";
import { describe, expect, expectTypeOf, it } from "vitest";
import { CHANGE_TYPES, type ChangeEvent, type ChangeEventOf, isChangeType } from "./events.ts";

describe("change events", () => {
  it("lists exactly the webhooks of docs/openapi.json", async () => {
    const document = JSON.parse(
      await readFile(new URL("../../../docs/openapi.json", import.meta.url), "utf8"),
    );
    expect([...CHANGE_TYPES]).toEqual(Object.keys(document.webhooks));
    expect(isChangeType("name.issued")).toBe(true);
    expect(isChangeType("name.exploded")).toBe(false);
  });

  it("narrows on type", () => {
    const event = {
      type: "record.text_changed",
      timestamp: "2026-01-02T03:04:05.000Z",
      data: {
        namespace: "acme",
        name: "alice.acme",
        ledger: 7,
        txHash: "ab".repeat(32),
        eventId: "0000000030064771072-0000000000",
        at: null,
        backfill: false,
        key: "avatar",
      },
    } as ChangeEvent;
    if (event.type === "record.text_changed") {
      expectTypeOf(event).toEqualTypeOf<ChangeEventOf<"record.text_changed">>();
      expect(event.data.key).toBe("avatar");
    }
  });
});
