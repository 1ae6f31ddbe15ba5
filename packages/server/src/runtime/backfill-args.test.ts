import { describe, expect, it } from "vitest";
import { parseBackfillArgs } from "./backfill-cli.ts";

describe("namereg backfill arguments", () => {
  it("reads the RPC and an optional ledger range", () => {
    expect(parseBackfillArgs(["--rpc", "http://archive:8000", "--from", "10", "--to", "20"])).toEqual({
      rpcUrl: "http://archive:8000",
      from: 10,
      to: 20,
    });
    expect(parseBackfillArgs(["--rpc", "https://rpc.example"])).toEqual({
      rpcUrl: "https://rpc.example",
      from: undefined,
      to: undefined,
    });
  });

  it("says what is wrong, every problem at once", () => {
    expect(parseBackfillArgs(["--rpc", "notaurl", "--from", "abc"])).toEqual({
      problems: [
        '--from must be a ledger number (1 or more), not "abc"',
        '--rpc must be an http:// or https:// URL, not "notaurl"',
      ],
    });
    expect(parseBackfillArgs(["--rpc", "http://a", "--from", "10", "--to", "5"])).toEqual({
      problems: ["--from 10 is after --to 5"],
    });
    expect(parseBackfillArgs([])).toEqual({
      problems: ["--rpc <url> is required: the RPC that still holds the gap's ledgers"],
    });
    const unknown = parseBackfillArgs(["--rpc", "http://a", "--bogus", "1"]);
    expect("problems" in unknown && unknown.problems[0]).toContain("--bogus");
  });
});
