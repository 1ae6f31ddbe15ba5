// The formatting module: every machine value as a person reads it, in a given locale and zone.
import { describe, expect, it } from "vitest";
import {
  amount,
  baseUnitsAmount,
  dateTime,
  duration,
  fromBaseUnits,
  objectionWindow,
  percent,
  recordLink,
  relativeTime,
  textParts,
  visibleControls,
  webAddress,
} from "./format.ts";

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

describe("amount", () => {
  it("writes the API's 7-decimal amounts with as many decimals as they have, never trailing zeros", () => {
    expect(amount("500.0000000", "XLM", "en-GB")).toBe("500 XLM");
    expect(amount("487.5000000", "XLM", "en-GB")).toBe("487.5 XLM");
    expect(amount("0.0000100", "XLM", "en-GB")).toBe("0.00001 XLM");
    expect(amount("10.0000005", "XLM", "en-GB")).toBe("10.0000005 XLM");
  });

  it("groups thousands in the reader's locale", () => {
    expect(amount("1234.5", "XLM", "en-GB")).toBe("1,234.5 XLM");
    expect(amount("1234.5678", "XLM", "de-DE")).toBe("1.234,5678 XLM");
  });

  it("keeps every digit of an amount past a Number's precision", () => {
    expect(amount("12345678901234.5678901", "XLM", "en-GB")).toBe("12,345,678,901,234.5678901 XLM");
  });

  it("shows a value that is no decimal as it came", () => {
    expect(amount("lots", "XLM", "en-GB")).toBe("lots XLM");
  });

  it("writes base units (stroops) in the asset's unit, never as stroops", () => {
    expect(baseUnitsAmount("5000000000", 7, "XLM", "en-GB")).toBe("500 XLM");
    expect(baseUnitsAmount(12_345_000_000n, 7, "XLM", "en-GB")).toBe("1,234.5 XLM");
    expect(baseUnitsAmount("100", 7, "XLM", "en-GB")).toBe("0.00001 XLM");
  });
});

describe("percent", () => {
  it("writes basis points as a percentage", () => {
    expect(percent(250, "en-GB")).toBe("2.5 %");
    expect(percent(8000, "en-GB")).toBe("80 %");
    expect(percent(1, "en-GB")).toBe("0.01 %");
  });
});

describe("dateTime", () => {
  it("writes an ISO instant as a date and time in the given locale", () => {
    expect(dateTime("2026-12-02T14:28:47.709Z", "en-GB", "UTC")).toBe("2 Dec 2026, 14:28");
    expect(dateTime("2026-11-26T08:19:29Z", "en-US", "UTC")).toBe("Nov 26, 2026, 8:19 AM");
  });

  it("writes the instant in the reader's zone", () => {
    expect(dateTime("2026-11-26T23:30:00Z", "en-GB", "Asia/Tokyo")).toBe("27 Nov 2026, 08:30");
  });

  it("leaves a value that is no date as it came", () => {
    expect(dateTime("not a date", "en-GB", "UTC")).toBe("not a date");
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-12-01T14:28:00Z");

  it("says how far ahead or behind an instant is, in the largest unit that fits", () => {
    expect(relativeTime("2026-12-07T14:28:00Z", now, "en")).toBe("in 6 days");
    expect(relativeTime("2026-12-01T14:25:00Z", now, "en")).toBe("3 minutes ago");
    expect(relativeTime("2026-12-02T13:28:00Z", now, "en")).toBe("in 23 hours");
    expect(relativeTime("2026-12-02T14:28:00Z", now, "en")).toBe("tomorrow");
    expect(relativeTime("2026-12-01T14:28:03Z", now, "en")).toBe("in a few seconds");
    expect(relativeTime("2026-12-01T14:27:57Z", now, "en")).toBe("just now");
    expect(relativeTime("2026-12-01T14:28:00Z", now, "en")).toBe("just now");
    expect(relativeTime("2026-12-01T14:27:48Z", now, "en")).toBe("12 seconds ago");
  });

  it("never rounds up to the next unit", () => {
    expect(relativeTime("2026-12-02T14:27:00Z", now, "en")).toBe("in 23 hours");
  });

  it("has nothing to say of a value that is no date", () => {
    expect(relativeTime("soon", now, "en")).toBeNull();
  });
});

describe("duration", () => {
  it("writes a length of time in its largest whole unit", () => {
    expect(duration(345_600, "en")).toBe("4 days");
    expect(duration(5_400, "en")).toBe("1 hour");
    expect(duration(59, "en")).toBe("59 seconds");
  });
});

describe("objectionWindow", () => {
  const open = { state: "announced", elapsed: false, remainingSeconds: 345_600 };

  it("counts the time left of an open window in days or hours, and says when it elapsed", () => {
    expect(objectionWindow(open, "en")).toBe("open, 4 days left");
    expect(objectionWindow({ ...open, remainingSeconds: 7_200 }, "en")).toBe("open, 2 hours left");
    expect(objectionWindow({ ...open, remainingSeconds: 0, elapsed: true }, "en")).toBe(
      "closed: the objection window has elapsed",
    );
  });

  it("says an awarded claim's window is closed instead of counting down", () => {
    expect(objectionWindow({ ...open, state: "awarded" }, "en")).toBe("closed: the claim was awarded");
  });
});

describe("text written by others", () => {
  it("names the bidirectional and zero-width controls instead of applying them", () => {
    expect(visibleControls("gnp\u202e.exe")).toBe("gnp[RLO].exe");
    expect(visibleControls("a\u200bb\u2066c\u2069")).toBe("a[ZWSP]b[LRI]c[PDI]");
    expect(visibleControls("plain text")).toBe("plain text");
  });

  it("splits the text into runs and controls, with each control's code point", () => {
    expect(textParts("x\u202ey")).toEqual([
      { kind: "text", text: "x" },
      { kind: "control", name: "RLO", code: "U+202E" },
      { kind: "text", text: "y" },
    ]);
  });
});

describe("webAddress", () => {
  it("shows a host with a Cyrillic homoglyph, and a path with U+202E, in the ASCII form the browser opens", () => {
    const spoof = webAddress("https://\u0430pple.com/\u202egnp.exe");
    expect(spoof).toEqual({
      href: "https://xn--pple-43d.com/%E2%80%AEgnp.exe",
      text: "https://xn--pple-43d.com/%E2%80%AEgnp.exe",
      host: "xn--pple-43d.com",
      rewritten: true,
    });
  });

  it("shows an internationalized host in punycode", () => {
    expect(webAddress("https://münchen.example/")?.text).toBe("https://xn--mnchen-3ya.example/");
  });

  it("shows a plain ASCII address as written", () => {
    expect(webAddress("https://alice.example")).toMatchObject({
      href: "https://alice.example/",
      text: "https://alice.example",
      rewritten: false,
    });
  });

  it("is no address for anything but http(s)", () => {
    expect(webAddress("javascript:alert(1)")).toBeNull();
    expect(webAddress("not a url")).toBeNull();
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
