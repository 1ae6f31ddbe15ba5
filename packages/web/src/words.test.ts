// The API's states in words, and a name's timeline made of its lifecycle and its record changes.
import { describe, expect, it } from "vitest";
import {
  attemptError,
  basis,
  claimState,
  componentDetails,
  componentName,
  componentState,
  feeOutcome,
  nameFlags,
  ownership,
  statusSummary,
  subnameManagement,
  timeline,
} from "./words.ts";

describe("componentName", () => {
  it("says the API's chain connection in words, and starts every name with a capital", () => {
    expect(componentName("the service RPC")).toBe("Connection to the Stellar network");
    expect(componentName("Indexer")).toBe("Indexer");
    expect(componentName("read replica")).toBe("Read replica");
  });
});

describe("componentState and componentDetails", () => {
  it("say each state in words, and what a component reports, without field names", () => {
    expect(componentState("operational")).toBe("Operational");
    expect(componentState("lagging")).toBe("Behind the chain");
    expect(componentState("degraded")).toBe("Working, needs an operator");
    expect(componentState("down")).toBe("Down");
    expect(componentState("unknown")).toBe("Not known yet");
    expect(componentDetails({ name: "Database", state: "operational" })).toBe("—");
    // The reason the service gives for a component that is down comes first, in its own words.
    expect(
      componentDetails({
        name: "Indexer",
        state: "down",
        ledger: 30,
        lag: null,
        deadLetters: 0,
        reason: "the RPC serves another network than the one indexed",
      }),
    ).toBe("the RPC serves another network than the one indexed; at ledger 30; every event applied");
    const indexer = componentDetails(
      {
        name: "Indexer",
        state: "degraded",
        ledger: 30,
        lag: 2,
        processedAt: "2026-11-21T17:24:47.549Z",
        deadLetters: 1,
      },
      Date.parse("2026-11-21T17:25:17.549Z"),
    );
    expect(indexer).toBe(
      "at ledger 30; 2 ledgers behind; last progress 30 seconds ago; 1 event could not be applied and wait for an operator",
    );
    expect(indexer).not.toMatch(/deadLetters|processedAt|lag:/);
    expect(componentDetails({ name: "Indexer", ledger: 30, lag: 0, deadLetters: 0 })).toBe(
      "at ledger 30; keeping up with the chain; every event applied",
    );
    expect(componentDetails({ name: "Escrow watcher", cursorAgeSeconds: 1, parkedPayouts: 0 })).toBe(
      "last poll 1 second ago; nothing parked",
    );
    expect(componentDetails({ name: "Billing watcher", cursorAgeSeconds: 3, quarantined: 2 })).toBe(
      "last poll 3 seconds ago; 2 payments quarantined for an operator",
    );
    expect(componentDetails({ name: "Escrow watcher", cursorAgeSeconds: 0, parkedPayouts: 0 })).toBe(
      "last poll just now; nothing parked",
    );
  });

  it("count a watcher's last poll from when the answer was read, so a kept answer does not say 0 seconds ago", () => {
    const readAt = Date.parse("2026-11-21T17:24:00.000Z");
    const watcher = { name: "Billing watcher", cursorAgeSeconds: 0, quarantined: 0 };
    expect(componentDetails(watcher, readAt, readAt)).toBe("last poll just now; nothing quarantined");
    expect(componentDetails(watcher, readAt + 65_000, readAt)).toBe(
      "last poll 1 minute ago; nothing quarantined",
    );
    expect(componentDetails({ ...watcher, cursorAgeSeconds: 2 }, readAt + 5_000, readAt)).toBe(
      "last poll 7 seconds ago; nothing quarantined",
    );
  });
});

describe("statusSummary", () => {
  it("says the summary, and in the past while the answer shown is the last one read before a failed re-read", () => {
    expect(statusSummary(true, 291)).toBe("All systems operational · ledger 291");
    expect(statusSummary(false, null)).toBe("Some components need attention");
    expect(statusSummary(true, 291, true)).toBe("All systems were operational when last read · ledger 291");
    expect(statusSummary(false, 12, true)).toBe(
      "Some components needed attention when last read · ledger 12",
    );
  });
});

describe("claimState and basis", () => {
  it("say a claim's group and its basis in words", () => {
    expect(claimState("announced")).toBe("Announced, open to objections");
    expect(claimState("objected")).toBe("Objected");
    expect(claimState("awarded")).toBe("Awarded");
    expect(basis("prior_use")).toBe("prior use");
    expect(feeOutcome("Held")).toBe("held while the claim is live");
    expect(feeOutcome("Withdrawn")).toBe("partly refunded: the claim was withdrawn");
  });
});

describe("ownership", () => {
  it("says what the chain guarantees", () => {
    expect(ownership("permanent")).toBe("Permanent: nobody can take it back");
    expect(ownership("revocable")).toBe("Revocable: the namespace owner can still reclaim it");
  });
});

describe("subnameManagement", () => {
  it("offers subname creation only where the namespace's policy allows it", () => {
    expect(subnameManagement("alice.acme", "enabled")).toBe(
      "The holder of alice.acme can create and remove its subnames here after signing in with their wallet.",
    );
    // plain's policy refuses new subnames (409 subname_creation_disabled): the page must not promise one.
    expect(subnameManagement("carol.plain", "creation-disabled")).toBe(
      "Namespace plain allows no new subnames now (no new subnames; existing ones stay); the holder of carol.plain can remove its subnames here after signing in with their wallet.",
    );
    expect(subnameManagement("carol.plain", "suspended")).toMatch(
      /^Namespace plain allows no new subnames now/,
    );
    expect(subnameManagement("alice.acme", null)).toBeNull();
  });
});

describe("timeline", () => {
  const tx = (n: number) => String(n).padStart(64, "0");
  const id = (n: number) => `${String(n).padStart(19, "0")}-0000000000`;
  it("merges lifecycle and record changes newest first, telling a registrar event of a lifecycle entry once", () => {
    const rows = timeline(
      [
        { action: "transferred", ledger: 20, txHash: tx(20), at: "t20" },
        { action: "issued", ledger: 9, txHash: tx(9), at: "t9" },
      ],
      [
        { id: id(9), type: "name_v1", ledger: 9, txHash: tx(9), at: "t9" },
        { id: id(14), type: "pay_v1", ledger: 14, txHash: tx(14), at: "t14" },
        { id: id(15), type: "text_v1", ledger: 15, txHash: tx(15), at: "t15" },
        { id: id(16), type: "name_v1", ledger: 16, txHash: tx(16), at: "t16" },
        { id: id(20), type: "name_v1", ledger: 20, txHash: tx(20), at: "t20" },
        { id: id(21), type: "sub_v1", ledger: 21, txHash: tx(21), at: "t21" },
      ],
    );
    expect(rows).toEqual([
      { what: "Transferred to a new holder", ledger: 20, at: "t20", txHash: tx(20) },
      { what: "Renewed, or its built-in address changed", ledger: 16, at: "t16", txHash: tx(16) },
      { what: "A text record changed", ledger: 15, at: "t15", txHash: tx(15) },
      { what: "Payment instruction set", ledger: 14, at: "t14", txHash: tx(14) },
      { what: "Issued", ledger: 9, at: "t9", txHash: tx(9) },
    ]);
  });

  it("orders events of one ledger by their place in the chain, and keeps lifecycle entries the archive lacks", () => {
    const rows = timeline(
      [{ action: "reclaimed", ledger: 5, txHash: tx(1), at: null }],
      [
        { id: `${id(30)}`, type: "text_v1", ledger: 30, txHash: tx(2), at: null },
        { id: `${id(31)}`, type: "chn_v1", ledger: 30, txHash: tx(3), at: null },
      ],
    );
    expect(rows.map((r) => r.what)).toEqual([
      "A network address changed",
      "A text record changed",
      "Reclaimed by the namespace owner",
    ]);
  });
});

describe("nameFlags", () => {
  const address = "GALICE";
  it("says whether the name is its pay-to account's display and primary name", () => {
    expect(nameFlags({ name: "alice.acme", address, displayName: true, primaryName: true })).toEqual({
      display: "alice.acme is the display name of GALICE in acme.",
      primary: "alice.acme is its primary name.",
    });
    expect(nameFlags({ name: "alice.acme", address, displayName: false, primaryName: false })).toEqual({
      display: "alice.acme is not the display name of GALICE in acme.",
      primary: "alice.acme is not its primary name.",
    });
  });

  it("says a flag the service could not read could not be checked, not no", () => {
    expect(nameFlags({ name: "alice.acme", address, displayName: null, primaryName: null })).toEqual({
      display: "Whether alice.acme is the display name of GALICE in acme could not be checked.",
      primary: "Whether alice.acme is its primary name could not be checked.",
    });
  });

  it("says a name without a pay-to address is no one's display or primary name", () => {
    const none = "alice.acme pays to no address, so it is no account's display or primary name.";
    expect(nameFlags({ name: "alice.acme", address: null, displayName: null, primaryName: null })).toEqual({
      display: none,
      primary: none,
    });
  });
});

describe("attemptError", () => {
  it("says a webhook attempt's network error in words, and leaves text that already is words", () => {
    expect(attemptError("connect ECONNREFUSED 127.0.0.1:18599")).toBe(
      "the receiver refused the connection (nothing listens at that address)",
    );
    expect(attemptError("fetch failed: getaddrinfo ENOTFOUND hooks.example")).toBe(
      "the receiver's host name could not be found",
    );
    expect(attemptError("fetch failed: other side closed (UND_ERR_SOCKET)")).toBe(
      "the receiver cut the connection",
    );
    expect(attemptError("timed out after 10000 ms")).toBeNull();
    expect(attemptError("target refused: 10.0.0.1 is a private address")).toBeNull();
  });
});
