import { describe, expect, it } from "vitest";
import {
  CursorFormatError,
  compareCursors,
  formatEventId,
  maxCursorOfLedger,
  parseEventCursor,
  parseToid,
  positionAfter,
  toid,
} from "./toid.ts";

describe("TOID", () => {
  it("packs ledger, 1-based transaction and operation index as stellar-rpc does", () => {
    // From the published getEvents example: ledger 3727845, transaction 5, operation 0.
    expect(toid(3727845, 5, 0)).toBe(16010972359577600n);
    expect(parseToid(16010972359577600n)).toEqual({ ledger: 3727845, tx: 5, op: 0 });
    expect(toid(337272, 5, 1)).toBe(1448572209876993n);
  });

  it("formats event ids as %019d-%010d", () => {
    expect(formatEventId({ ledger: 3727845, tx: 5, op: 0, event: 8 })).toBe("0016010972359577600-0000000008");
    expect(formatEventId({ ledger: 2, tx: 1, op: 0, event: 0 })).toBe("0000000008589938688-0000000000");
  });

  it("round-trips an event id through the cursor parser", () => {
    const cursor = { ledger: 123456, tx: 17, op: 3, event: 42 };
    expect(parseEventCursor(formatEventId(cursor))).toEqual(cursor);
  });

  it("gives the maximal cursor of a ledger as the real server prints it", () => {
    expect(formatEventId(maxCursorOfLedger(3730843))).toBe("0016023852966477823-4294967295");
  });

  it("continues after the maximal cursor at a position past every event of that ledger", () => {
    const after = positionAfter(maxCursorOfLedger(10));
    expect(after.ledger).toBe(10);
    expect(compareCursors({ ledger: 10, tx: 1000, op: 99, event: 5000 }, after)).toBeLessThan(0);
    expect(compareCursors({ ledger: 11, tx: 1, op: 0, event: 0 }, after)).toBeGreaterThan(0);
  });

  it("continues after a full page's last event at the next event index", () => {
    expect(positionAfter({ ledger: 5, tx: 2, op: 0, event: 3 })).toEqual({
      ledger: 5,
      tx: 2,
      op: 0,
      event: 4,
    });
  });

  it("refuses malformed cursors", () => {
    for (const bad of ["", "123", "abc-1", "1-2-3", "0000000008589938688-99999999999"]) {
      expect(() => parseEventCursor(bad), bad).toThrow(CursorFormatError);
    }
  });
});
