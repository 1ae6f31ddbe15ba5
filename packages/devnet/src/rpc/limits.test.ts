import { describe, expect, it } from "vitest";
import { LimitsValidationError, resolveLimits, STELLAR_RPC_LIMITS } from "./limits.ts";

describe("resolveLimits", () => {
  it("is stellar-rpc's defaults with the given limits applied", () => {
    const limits = resolveLimits({ maxRequestExecutionMs: 5_000, methodExecutionMs: { getEvents: 2_000 } });
    expect(limits.maxRequestExecutionMs).toBe(5_000);
    expect(limits.methodExecutionMs.getEvents).toBe(2_000);
    expect(limits.methodExecutionMs.getLedgers).toBe(10_000);
    expect(limits.maxRequestBytes).toBe(512 * 1024);
    expect(STELLAR_RPC_LIMITS.methodExecutionMs.getEvents).toBe(10_000);
  });

  it("refuses limits that are not positive integers, unknown names, or a default above its maximum", () => {
    expect(() => resolveLimits({ maxRequestBytes: 0 })).toThrow("maxRequestBytes must be a positive integer");
    expect(() => resolveLimits({ maxRequestExecutionMs: 1.5 })).toThrow(LimitsValidationError);
    expect(() => resolveLimits({ defaultLedgersLimit: 201 })).toThrow(
      "defaultLedgersLimit cannot exceed maxLedgersLimit",
    );
    expect(() => resolveLimits({ bogus: 1 } as never)).toThrow("unknown limit bogus");
    expect(() => resolveLimits({ methodExecutionMs: { getFoo: 1 } } as never)).toThrow(
      "unknown method getFoo in methodExecutionMs",
    );
  });
});
