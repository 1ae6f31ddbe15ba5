// The supported Node lines, as the package's entry checks them before anything else loads (the whole refusal, run
// in a real process, is in package.integration.test.ts).
import { describe, expect, it } from "vitest";
import { unsupportedNode } from "./node-version.ts";

describe("unsupportedNode", () => {
  it("accepts Node 22.12 and later, Node 24 and later, and browsers (no Node version)", () => {
    for (const version of ["22.12.0", "22.20.1", "23.0.0", "24.0.0", "24.21.0", "26.1.0", undefined]) {
      expect(unsupportedNode(version)).toBeNull();
    }
  });

  it("names the supported lines in one line for older ones", () => {
    for (const version of ["20.20.2", "22.11.0", "18.19.0"]) {
      const problem = unsupportedNode(version);
      expect(problem).toBe(
        `@namereg/client needs Node.js 22.12+ or 24+ (Node 20 is past its end of life); this is Node.js ${version}`,
      );
    }
  });
});
