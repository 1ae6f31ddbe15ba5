import { describe, expect, it } from "vitest";
import { notACommand, USAGE } from "./cli-usage.ts";

describe("notACommand", () => {
  it("names an unknown command on stderr and fails, so a typo is not read as a usage question", () => {
    expect(notACommand("status")).toEqual({
      text: `namereg: unknown command "status"\n\n${USAGE}`,
      stream: "stderr",
      exitCode: 1,
    });
  });

  it("prints the overview on stdout and succeeds when asked for help", () => {
    for (const word of ["help", "--help", "-h"])
      expect(notACommand(word)).toEqual({ text: USAGE, stream: "stdout", exitCode: 0 });
  });
});
