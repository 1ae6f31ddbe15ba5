// Vitest's sequencer, with the suite's longest files first. On a fresh clone Vitest has no record of earlier runs
// and orders each project's files by size, which put a 145 s file behind a hundred 2 s ones: the run then ended
// on it with the other workers idle. The files named here took longest on a quiet two-core machine (the note of the
// issue that measured them); the rest keep Vitest's own order (earlier durations when it has them, else size).
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Paths from the repository root, longest first. Order only: a stale entry costs a little time, never a result. */
export const LONGEST: readonly string[] = [
  "packages/server/src/runtime/indexer-process.integration.test.ts",
  "packages/server/src/escrow/escrow-crash.integration.test.ts",
  "bench/topology/suite.integration.test.ts",
  "packages/server/src/indexer/indexer.integration.test.ts",
  "packages/server/src/webhooks/webhook-kill.integration.test.ts",
  "packages/server/src/billing/billing-crash.integration.test.ts",
  "bench/faults/suite.integration.test.ts",
  "packages/client/src/package.integration.test.ts",
  "bench/kill/suite.integration.test.ts",
  // The unit project's longest (it builds the embedded database's seed with initdb): first of its project, not last.
  "packages/server/src/db/pglite-seed.test.ts",
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index === -1 ? LONGEST.length : index;
    };
    // Stable: within a project, the listed files first in their order, then Vitest's order; projects keep theirs.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((name) =>
      sorted.filter((spec) => spec.project.name === name).sort((a, b) => rank(a) - rank(b)),
    );
  }
}
