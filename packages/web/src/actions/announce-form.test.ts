// The announce form's reading of what a person typed, and the quote's refund rules in words.
import { describe, expect, it } from "vitest";
import { parseAnnounce, refundLines } from "./announce-form.ts";

describe("the announce form", () => {
  it("reads a namespace, bases as words and evidence lines into what the allocator takes", () => {
    expect(
      parseAnnounce(
        " NewBrand ",
        "trademark,  prior use ,",
        "\nTrademark registration https://tm.example/123\n  Press release  http://news.example/a \n",
      ),
    ).toEqual({
      ok: true,
      value: {
        label: "newbrand",
        basis: ["trademark", "prior_use"],
        evidence: [
          { label: "Trademark registration", url: "https://tm.example/123" },
          { label: "Press release", url: "http://news.example/a" },
        ],
      },
    });
    expect(parseAnnounce("acme", "brand", "")).toEqual({
      ok: true,
      value: { label: "acme", basis: ["brand"], evidence: [] },
    });
  });

  it("says what is wrong with each field, in words", () => {
    expect(parseAnnounce("", "", "")).toEqual({
      ok: false,
      problems: {
        label: "Name the namespace to claim.",
        basis: "Give at least one basis, such as trademark or prior use.",
      },
    });
    expect(parseAnnounce("-acme", "brand", "").ok).toBe(false);
    expect(parseAnnounce("ac.me", "brand", "")).toEqual({
      ok: false,
      problems: { label: "A namespace is made of a-z, 0-9 and '-' only." },
    });
    expect(parseAnnounce("acme", "brand!", "")).toEqual({
      ok: false,
      problems: {
        basis: "“brand!” is not a basis: use letters, digits and spaces, at most 32 characters each.",
      },
    });
    expect(parseAnnounce("acme", "a,b,c,d,e,f,g,h,i", "")).toEqual({
      ok: false,
      problems: { basis: "Give at most 8 bases." },
    });
    expect(parseAnnounce("acme", "brand", "ok https://a.example\nftp://b.example/x")).toEqual({
      ok: false,
      problems: { evidence: "Evidence line 2: end it with the evidence's http:// or https:// address." },
    });
    expect(parseAnnounce("acme", "brand", "https://a.example")).toEqual({
      ok: false,
      problems: {
        evidence: "Evidence line 1: put a description of 1 to 64 characters before the address.",
      },
    });
    const nine = Array.from({ length: 9 }, (_, i) => `Item ${i} https://e.example/${i}`).join("\n");
    expect(parseAnnounce("acme", "brand", nine)).toEqual({
      ok: false,
      problems: { evidence: "Cite at most 8 pieces of evidence." },
    });
  });

  it("gives the refund of each outcome from the quote's refundBps, rounded down as the contract rounds", () => {
    const bps = { Awarded: 0, Rejected: 10000, Stuck: 10000, Withdrawn: 8000, Expired: 8000 };
    expect(refundLines("500000000", bps)).toEqual([
      "If the claim is awarded to you: nothing back; 50 XLM to the treasury.",
      "If you withdraw it: 40 XLM back to you as credit (80 %); 10 XLM to the treasury.",
      "If it expires undecided: 40 XLM back to you as credit (80 %); 10 XLM to the treasury.",
      "If it is rejected: 50 XLM back to you as credit (100 %).",
      "If the operator marks it stuck: 50 XLM back to you as credit (100 %).",
    ]);
    expect(refundLines("3", { Withdrawn: 8000 })).toEqual([
      "If you withdraw it: 0.0000002 XLM back to you as credit (80 %); 0.0000001 XLM to the treasury.",
    ]);
  });
});
