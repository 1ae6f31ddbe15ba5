import { describe, expect, it } from "vitest";
import { LEDGER_SCAN_LIMIT, LedgerRangeError, pageCursor, scanWindow } from "./event-window.ts";
import { formatEventId, maxCursorOfLedger } from "./toid.ts";

describe("getEvents scan window", () => {
  const range = { oldest: 100, latest: 50_000 };

  it("ends at start + 10,000 (exclusive)", () => {
    expect(scanWindow({ startLedger: 200 }, range)).toEqual({
      start: { ledger: 200, tx: 0, op: 0, event: 0 },
      endLedger: 200 + LEDGER_SCAN_LIMIT,
    });
  });

  it("ends at the latest ledger + 1 or at endLedger when earlier", () => {
    expect(scanWindow({ startLedger: 49_990 }, range).endLedger).toBe(50_001);
    expect(scanWindow({ startLedger: 200, endLedger: 300 }, range).endLedger).toBe(300);
  });

  it("starts a cursor request after the cursor, in the cursor's ledger", () => {
    const w = scanWindow({ cursor: maxCursorOfLedger(10_199) }, range);
    expect(w.start.ledger).toBe(10_199);
    expect(w.start.event).toBe(0);
    expect(w.endLedger).toBe(20_199);
  });

  it("refuses a start outside the retained range with the server's message", () => {
    expect(() => scanWindow({ startLedger: 99 }, range)).toThrow(
      new LedgerRangeError("startLedger must be within the ledger range: 100 - 50000"),
    );
    expect(() => scanWindow({ startLedger: 50_001 }, range)).toThrow(LedgerRangeError);
    expect(() => scanWindow({ cursor: { ledger: 42, tx: 1, op: 0, event: 0 } }, range)).toThrow(
      LedgerRangeError,
    );
  });

  it("returns the last event id for a full page, else the window's last ledger's maximal cursor", () => {
    const w = scanWindow({ startLedger: 200 }, range);
    const last = { ledger: 250, tx: 3, op: 0, event: 1 };
    expect(formatEventId(pageCursor(w, 2, [{ ledger: 201, tx: 1, op: 0, event: 0 }, last]))).toBe(
      formatEventId(last),
    );
    expect(formatEventId(pageCursor(w, 3, [last]))).toBe("0000043808666419199-4294967295");
    expect(pageCursor(w, 3, [])).toEqual(maxCursorOfLedger(10_199));
  });
});
