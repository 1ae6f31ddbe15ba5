// Base units to the asset's unit, exactly: the claim fee of 1000000000 stroops is 100 XLM, not 1000000000 XLM.
import { describe, expect, it } from "vitest";
import { fromBaseUnits, objectionWindow, readableTime, recordLink } from "./format.ts";

describe("fromBaseUnits", () => {
  it("moves the decimal point by the token's decimals and drops trailing zeros", () => {
    expect(fromBaseUnits("1000000000", 7)).toBe("100");
    expect(fromBaseUnits("12345", 7)).toBe("0.0012345");
    expect(fromBaseUnits("100000005", 7)).toBe("10.0000005");
    expect(fromBaseUnits("0", 7)).toBe("0");
    expect(fromBaseUnits("-25000000", 7)).toBe("-2.5");
    expect(fromBaseUnits("42", 0)).toBe("42");
  });

  it("keeps every digit of an amount beyond a Number's precision", () => {
    expect(fromBaseUnits("123456789012345678901", 7)).toBe("12345678901234.5678901");
  });

  it("leaves a value that is not an integer as it came", () => {
    expect(fromBaseUnits("1.5", 7)).toBe("1.5");
  });
});

describe("objectionWindow", () => {
  const open = { state: "announced", elapsed: false, remainingSeconds: 345_600, awardedAt: null };

  it("counts the hours left of an open window, and says when it elapsed", () => {
    expect(objectionWindow(open)).toBe("96 h left");
    expect(objectionWindow({ ...open, remainingSeconds: 1 })).toBe("1 h left");
    expect(objectionWindow({ ...open, remainingSeconds: 0, elapsed: true })).toBe("elapsed");
  });

  it("says an awarded claim's window is closed, with the award's time, instead of hours left", () => {
    const awarded = { ...open, state: "awarded", awardedAt: "2026-11-23T02:01:04.000Z" };
    expect(objectionWindow(awarded)).toBe("closed (awarded 2026-11-23T02:01:04.000Z)");
    expect(objectionWindow({ ...awarded, awardedAt: null })).toBe("closed (awarded)");
  });
});

describe("readableTime", () => {
  it("writes an ISO instant as a date and time in the given locale", () => {
    expect(readableTime("2026-11-26T08:19:29.000Z", "en-GB", "UTC")).toBe("26 Nov 2026, 08:19");
    expect(readableTime("2026-11-26T08:19:29Z", "en-US", "UTC")).toBe("Nov 26, 2026, 8:19 AM");
  });

  it("writes the instant in the reader's zone", () => {
    expect(readableTime("2026-11-26T23:30:00Z", "en-GB", "Asia/Tokyo")).toBe("27 Nov 2026, 08:30");
  });

  it("leaves a value that is no date as it came", () => {
    expect(readableTime("not a date", "en-GB", "UTC")).toBe("not a date");
  });
});

describe("recordLink", () => {
  it("links an http(s) URL under url or avatar", () => {
    expect(recordLink("url", "https://alice.example")).toBe("https://alice.example/");
    expect(recordLink("avatar", "http://avatars.example/alice.png")).toBe("http://avatars.example/alice.png");
  });

  it("never links javascript:, data: or anything that is no http(s) URL", () => {
    expect(recordLink("url", "javascript:alert(1)")).toBeNull();
    expect(recordLink("url", " JavaScript:alert(1)")).toBeNull();
    expect(recordLink("avatar", "data:image/png;base64,AAAA")).toBeNull();
    expect(recordLink("url", "alice.example")).toBeNull();
    expect(recordLink("url", "/relative")).toBeNull();
  });

  it("leaves a URL under any other key as text", () => {
    expect(recordLink("email", "https://alice.example")).toBeNull();
  });
});
