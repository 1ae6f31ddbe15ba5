// Every source file at most 350 lines (CONTRIBUTING.md "Style"): a module past that has grown a second job, and
// the split along its seam is cheapest while the file is fresh in someone's mind. Counted: every TypeScript and
// JavaScript file of the packages and of bench/. Excepted, and why:
//   - tests (`*.test.ts`, `*.test.tsx`, `*.integration.test.ts`): a test file is a list of cases over one subject;
//     its length is the subject's number of cases, not a second job;
//   - generated files (`packages/client/src/generated/`, written by openapi-typescript from docs/openapi.json), and
//     what a build or install writes (`dist/`, `node_modules/`).
// Test fixtures and the benchmarks are source and are counted. There are no exceptions by name: a file that
// grows past the limit is split along its seam in the change that grows it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const LIMIT = 350;
const SKIP_DIRS = new Set(["node_modules", "dist", ".git", "data", "generated", "test-artifacts"]);
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const TEST = /\.test\.tsx?$/;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (SOURCE.test(entry.name) && !TEST.test(entry.name)) {
      out.push(relative(ROOT, full).replaceAll("\\", "/"));
    }
  }
  return out;
}

/** Lines as an editor numbers them: a final newline does not start another. */
const linesOf = (path: string) =>
  readFileSync(join(ROOT, path), "utf8").replace(/\n$/, "").split("\n").length;

const FILES = [...sourceFiles(join(ROOT, "packages")), ...sourceFiles(join(ROOT, "bench"))];
const SIZES = new Map(FILES.map((path) => [path, linesOf(path)]));

describe(`source files at most ${LIMIT} lines`, () => {
  it("sees the source tree, tests and generated files left out", () => {
    expect(SIZES.get("packages/server/src/cli.ts")).toBeGreaterThan(10);
    expect(SIZES.get("packages/web/src/ui.tsx")).toBeGreaterThan(10);
    expect(SIZES.get("bench/topology/run.ts")).toBeGreaterThan(10);
    expect(FILES.length).toBeGreaterThan(300);
    expect(FILES.some((path) => TEST.test(path))).toBe(false);
    expect(FILES.some((path) => path.includes("/generated/"))).toBe(false);
  });

  it(`no source file passes ${LIMIT} lines`, () => {
    const over = [...SIZES]
      .filter(([, lines]) => lines > LIMIT)
      .map(([path, lines]) => `${path}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
