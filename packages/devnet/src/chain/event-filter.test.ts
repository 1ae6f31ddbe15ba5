import { xdr } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { anyFilterMatches, type FilterableEvent, filterMatches, topicMatches } from "./event-filter.ts";

const sym = (s: string) => xdr.ScVal.scvSymbol(s).toXdr("base64");
const A = sym("a");
const B = sym("b");
const C = sym("c");

describe("topic filter matching", () => {
  it("needs the exact number of segments without a trailing **", () => {
    expect(topicMatches({ segments: [A, B], rest: false }, [A, B])).toBe(true);
    expect(topicMatches({ segments: [A, B], rest: false }, [A, B, C])).toBe(false);
    expect(topicMatches({ segments: [A, B], rest: false }, [A])).toBe(false);
  });

  it("matches one segment with *", () => {
    expect(topicMatches({ segments: [A, null], rest: false }, [A, C])).toBe(true);
    expect(topicMatches({ segments: [null, B], rest: false }, [A, C])).toBe(false);
  });

  it("matches zero or more trailing segments with **", () => {
    const f = { segments: [A], rest: true };
    expect(topicMatches(f, [A])).toBe(true);
    expect(topicMatches(f, [A, B, C])).toBe(true);
    expect(topicMatches(f, [B, A])).toBe(false);
    expect(topicMatches({ segments: [A, null], rest: true }, [A])).toBe(false);
  });
});

describe("event filters", () => {
  const event: FilterableEvent = { type: "contract", contractId: "CA", topics: [A, B] };

  it("requires type, contract id and one of the topic filters to match", () => {
    expect(
      filterMatches({ contractIds: new Set(["CA"]), topics: [{ segments: [C], rest: true }] }, event),
    ).toBe(false);
    expect(
      filterMatches(
        {
          contractIds: new Set(["CA"]),
          topics: [
            { segments: [C], rest: true },
            { segments: [A, B], rest: false },
          ],
        },
        event,
      ),
    ).toBe(true);
    expect(filterMatches({ contractIds: new Set(["CB"]) }, event)).toBe(false);
    expect(filterMatches({ types: new Set(["system"]) }, event)).toBe(false);
  });

  it("ORs filters, and no filter matches everything", () => {
    expect(anyFilterMatches([], event)).toBe(true);
    expect(
      anyFilterMatches([{ contractIds: new Set(["CB"]) }, { types: new Set(["contract"]) }], event),
    ).toBe(true);
    expect(anyFilterMatches([{ contractIds: new Set(["CB"]) }], event)).toBe(false);
  });
});
