// Every file or folder the docs name in backticks must exist, and nothing cites a file outside the repository: a page that sends a reader to a file that was
// renamed or removed (say `indexer/project.ts`) is wrong, and nothing else would notice. Paths may be written
// from the repository root (`packages/server/src/db/tables.ts`) or relative to a package or folder the text is
// about (`api/plugins/errors.ts`, `writer-fence.ts`), so a path passes when some file or folder of the
// repository ends with it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SKIP_DIRS = new Set(["node_modules", ".git", "data"]);

/** Every file and folder of the checkout, relative to the root, folders with a trailing slash. */
function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    const path = relative(ROOT, full).replaceAll("\\", "/");
    if (entry.isDirectory()) {
      out.push(`${path}/`);
      walk(full, out);
    } else out.push(path);
  }
  return out;
}

const EXTENSIONS = /\.(ts|js|mjs|json|md|sql|html|css|ya?ml|sh)$/;
/** What a build, an install or a test run makes, not the repository: the client's build, npm's, screenshots. */
const GENERATED = ["dist/", "node_modules/", "test-artifacts/"];

/** A backticked token that reads as a path in this repository rather than a URL, a MIME type or a variable. */
function looksLikeRepoPath(token: string): boolean {
  if (!/^[A-Za-z0-9_.\-/]+$/.test(token)) return false; // placeholders, globs, URLs with queries, prose
  if (token.startsWith("/") || token.startsWith("./")) return false; // HTTP paths; paths of a running process
  if (/^(text|application|image|multipart)\//.test(token)) return false; // MIME types
  if (/^[A-Z][A-Z0-9_]*\//.test(token)) return false; // `DATA_DIR/pglite`: under a configured directory
  if (GENERATED.some((prefix) => token.startsWith(prefix))) return false;
  return token.includes("/") || (EXTENSIONS.test(token) && !token.startsWith("."));
}

/** Whether some file or folder of the tree is `path` or ends with `/path` (a folder with or without its slash). */
function existsInTree(tree: readonly string[], path: string): boolean {
  const wanted = path.replace(/^(\.\.\/)+/, "");
  const forms = wanted.endsWith("/") ? [wanted] : [wanted, `${wanted}/`];
  return tree.some((entry) => forms.some((form) => entry === form || entry.endsWith(`/${form}`)));
}

/** The backticked tokens of a markdown text, code blocks left out (they hold commands and output). */
function backticked(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => (m[1] ?? "").trim());
}

function docFiles(tree: readonly string[]): string[] {
  return tree.filter(
    (path) =>
      /^docs\/[^/]+\.md$/.test(path) ||
      /^packages\/[^/]+\/README\.md$/.test(path) ||
      path === "README.md" ||
      path === "CONTRIBUTING.md" ||
      path === "bench/README.md",
  );
}

describe("paths named in the docs", () => {
  const tree = walk(ROOT);

  it("reads the docs (the check below is not vacuous)", () => {
    const docs = docFiles(tree);
    expect(docs).toContain("docs/architecture.md");
    expect(docs).toContain("packages/server/README.md");
    const paths = docs.flatMap((doc) =>
      backticked(readFileSync(join(ROOT, doc), "utf8")).filter(looksLikeRepoPath),
    );
    expect(paths.length).toBeGreaterThan(100);
  });

  it("tells a wrong path from a right one", () => {
    expect(looksLikeRepoPath("indexer/project.ts")).toBe(true);
    expect(existsInTree(tree, "indexer/project.ts")).toBe(false);
    expect(existsInTree(tree, "indexer/apply-batch.ts")).toBe(true);
    expect(existsInTree(tree, "packages/server/src/indexer/")).toBe(true);
    expect(existsInTree(tree, "bench/kill")).toBe(true);
    expect(existsInTree(tree, "bench/kil")).toBe(false);
    expect(existsInTree(tree, "writer-fence.ts")).toBe(true);
    expect(existsInTree(tree, "ter-fence.ts")).toBe(false);
    for (const notPath of [
      "/v1/status",
      "text/plain",
      "DATA_DIR/pglite",
      "@namereg/client",
      "./data",
      ".ts",
    ]) {
      expect(looksLikeRepoPath(notPath)).toBe(false);
    }
  });

  it("every one exists", () => {
    const missing = docFiles(tree).flatMap((doc) =>
      backticked(readFileSync(join(ROOT, doc), "utf8"))
        .filter(looksLikeRepoPath)
        .filter((path) => !existsInTree(tree, path))
        .map((path) => `${doc}: ${path}`),
    );
    expect(missing).toEqual([]);
  });
});

/**
 * Citations of files a person who clones the repository does not have: the service specification and the design
 * and contract notes it was written from. Comments and docs cite `docs/api.md`, `docs/design.md` and
 * `docs/contracts.md` instead. Spelt in pieces so this file does not cite them either.
 */
const OUTSIDE = new RegExp(
  [
    "CONTRACTS\\.md",
    "DESIGN\\.md",
    "\\.\\./shared/",
    "name-registry-" + "service-api",
    "spec('s)? \u00a7",
  ].join("|"),
);

describe("citations", () => {
  const tree = walk(ROOT);
  const texts = tree.filter(
    (path) => /^(packages|bench|docs)\//.test(path) || path === "README.md" || path === "CONTRIBUTING.md",
  );

  it("tells an outside citation from a docs one", () => {
    expect(OUTSIDE.test("see spec \u00a74.6 rule 3")).toBe(true);
    expect(OUTSIDE.test("(CONTRACTS" + ".md, Allocator)")).toBe(true);
    expect(OUTSIDE.test('(docs/api.md "Claim fee")')).toBe(false);
    expect(OUTSIDE.test("read ../shared" + "/spec first")).toBe(true);
  });

  it("no source file or doc cites a file outside the repository", () => {
    const cited = texts
      .filter((path) => /\.(ts|js|md|html|json)$/.test(path))
      .flatMap((path) =>
        readFileSync(join(ROOT, path), "utf8")
          .split("\n")
          .flatMap((line, i) => (OUTSIDE.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(cited).toEqual([]);
  });
});
