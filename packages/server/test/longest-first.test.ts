import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { LONGEST, LongestFirst } from "./longest-first.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** A specification as the sequencer reads it: the file, its project, no result of an earlier run. */
function spec(path: string, project: string): TestSpecification {
  return {
    moduleId: `${ROOT}${path}`,
    project: { name: project, config: { sequence: { groupOrder: 0 }, isolate: false } },
  } as unknown as TestSpecification;
}

const ctx = { cache: { getTestSpecificationResult: () => undefined } } as unknown as Vitest;

describe("the longest-first sequencer", () => {
  it("puts the listed files first in their order within each project, then Vitest's order by size", async () => {
    const small = "packages/server/test/longest-first.ts";
    const big = "packages/server/test/fixtures/child-processes.ts";
    const files = [
      spec(small, "integration"),
      spec(LONGEST[1] as string, "integration"),
      spec(big, "integration"),
      spec(LONGEST[0] as string, "integration"),
      spec(small, "browser"),
    ];
    const sorted = await new LongestFirst(ctx).sort(files);
    expect(sorted.map((s) => [s.project.name, s.moduleId.slice(ROOT.length)])).toEqual([
      ["browser", small],
      ["integration", LONGEST[0]],
      ["integration", LONGEST[1]],
      ["integration", big],
      ["integration", small],
    ]);
  });
});
