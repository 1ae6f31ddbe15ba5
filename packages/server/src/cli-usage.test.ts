import { describe, expect, it } from "vitest";
import { USAGE, usageAnswer } from "./cli-usage.ts";

const KNOWN = new Set(["dev", "serve", "escrow", "devnet"]);
const USAGES = { escrow: "usage: namereg escrow <command>" };

describe("usageAnswer", () => {
  it("names an unknown command on stderr and fails, so a typo is not read as a usage question", () => {
    expect(usageAnswer("status", [], KNOWN, USAGES)).toEqual({
      text: `namereg: unknown command "status"\n\n${USAGE}`,
      stream: "stderr",
      exitCode: 1,
    });
  });

  it("prints help on stdout and succeeds, a command's own usage when it has one", () => {
    expect(usageAnswer("help", [], KNOWN, USAGES)).toEqual({ text: USAGE, stream: "stdout", exitCode: 0 });
    expect(usageAnswer("--help", [], KNOWN, USAGES)?.exitCode).toBe(0);
    expect(usageAnswer("escrow", ["--help"], KNOWN, USAGES)?.text).toBe("usage: namereg escrow <command>");
    expect(usageAnswer("serve", ["-h"], KNOWN, USAGES)).toEqual({
      text: USAGE,
      stream: "stdout",
      exitCode: 0,
    });
  });

  it("lets a known command run, and the devnet read its own --help", () => {
    expect(usageAnswer("serve", [], KNOWN, USAGES)).toBeNull();
    expect(usageAnswer("devnet", ["--help"], KNOWN, USAGES)).toBeNull();
  });
});
