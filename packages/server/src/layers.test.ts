// The layer rules of docs/architecture.md, checked over the import graph of the source tree: the API reads the
// mirror through db/ and never reaches into the indexer, chain/ knows nothing of HTTP, auth/ does not depend on
// the API, a route plugin never imports another route plugin, and a route area (a folder of api/routes/) never
// imports another area: what two areas share lives a layer down, in api/common/ or db/, which import no area.
// Nothing but the composition roots (runtime/, the entry files) imports the API; config/ stands below db/. The
// two money features (escrow/, billing/) each own their terms, status, watcher and CLI, sit over a shared watcher
// base (watchers/) that knows neither of them, and never reach into each other. runtime/ is the top floor: it
// wires the commands, and nothing but the entry files imports it; the plumbing every long-running process shares
// (openRuntime, untilSignal, the sole-holder lock, the logger's options) is process/, a room below the features
// that imports only config/ and db/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));

interface SourceFile {
  /** Relative to src/, with forward slashes. */
  readonly path: string;
  readonly text: string;
  /** Every import specifier: bare ones as written, relative ones resolved to paths relative to src/. */
  readonly imports: readonly string[];
}

// `import … from "x"`, `export … from "x"`, `import("x")`, and a bare side-effect `import "x"`.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s*["']([^"']+)["']/g;

function sourceFiles(dir = SRC): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    if (!entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) return [];
    const text = readFileSync(full, "utf8");
    const imports = [...text.matchAll(IMPORT)].map((m) => {
      const spec = m[1] ?? m[2] ?? m[3] ?? "";
      return spec.startsWith(".") ? relative(SRC, resolve(dirname(full), spec)).replaceAll("\\", "/") : spec;
    });
    return [{ path: relative(SRC, full).replaceAll("\\", "/"), text, imports }];
  });
}

const FILES = sourceFiles();
const byPath = new Map(FILES.map((file) => [file.path, file]));

/** A module that defines a Fastify route plugin. */
const isRouteFile = (file: SourceFile): boolean =>
  file.path.startsWith("api/routes/") && /\bFastifyPluginAsync(?:Zod)?\b/.test(file.text);

/** The route area (folder of api/routes/) a path is in; null for anything else, routes/path-params.ts included. */
function areaOf(path: string): string | null {
  const match = /^api\/routes\/([^/]+)\/.+$/.exec(path);
  return match?.[1] ?? null;
}

/** `file → import` pairs breaking a rule, for a readable failure. */
function violations(
  from: (file: SourceFile) => boolean,
  forbidden: (specifier: string) => boolean,
): string[] {
  return FILES.filter(from).flatMap((file) =>
    file.imports.filter(forbidden).map((specifier) => `${file.path} → ${specifier}`),
  );
}

describe("layer rules over the source tree", () => {
  it("sees the tree (the rules below are not vacuous)", () => {
    expect(FILES.filter((file) => file.path.startsWith("api/")).length).toBeGreaterThan(20);
    expect(FILES.filter((file) => file.path.startsWith("chain/")).length).toBeGreaterThan(3);
    expect(FILES.filter(isRouteFile).length).toBeGreaterThan(10);
    for (const folder of [
      "watchers/",
      "escrow/",
      "billing/",
      "webhooks/",
      "config/",
      "process/",
      "runtime/",
    ]) {
      expect(FILES.filter((file) => file.path.startsWith(folder)).length).toBeGreaterThan(1);
    }
  });

  it("nothing below the composition roots imports api/", () => {
    // Only what starts the service builds the API: runtime/ (the commands) and the package's top-level entry files.
    const composes = (file: SourceFile) => file.path.startsWith("runtime/") || !file.path.includes("/");
    expect(
      violations(
        (file) => !file.path.startsWith("api/") && !composes(file),
        (spec) => spec.startsWith("api/"),
      ),
    ).toEqual([]);
  });

  it("nothing but the entry files imports runtime/ (features reach the process plumbing in process/)", () => {
    const entry = (file: SourceFile) => !file.path.includes("/");
    expect(
      violations(
        (file) => !file.path.startsWith("runtime/") && !entry(file),
        (spec) => spec.startsWith("runtime/"),
      ),
    ).toEqual([]);
  });

  it("process/ imports nothing of the source tree but config/, db/ and itself", () => {
    // A relative import resolves to a path under src/ (it contains a slash); a bare package name has none or
    // starts with a scope.
    const ownTree = (spec: string) =>
      spec.includes("/") && !spec.startsWith("@") && !spec.startsWith("node:");
    expect(
      violations(
        (file) => file.path.startsWith("process/"),
        (spec) =>
          ownTree(spec) &&
          !spec.startsWith("config/") &&
          !spec.startsWith("db/") &&
          !spec.startsWith("process/"),
      ),
    ).toEqual([]);
  });

  it("config/ does not import db/", () => {
    expect(
      violations(
        (file) => file.path.startsWith("config/"),
        (spec) => spec.startsWith("db/"),
      ),
    ).toEqual([]);
  });

  it("the watcher base (watchers/) imports neither escrow/ nor billing/", () => {
    expect(
      violations(
        (file) => file.path.startsWith("watchers/"),
        (spec) => spec.startsWith("escrow/") || spec.startsWith("billing/"),
      ),
    ).toEqual([]);
  });

  it("escrow/ and billing/ do not import each other", () => {
    expect(
      violations(
        (file) => file.path.startsWith("escrow/"),
        (spec) => spec.startsWith("billing/"),
      ),
    ).toEqual([]);
    expect(
      violations(
        (file) => file.path.startsWith("billing/"),
        (spec) => spec.startsWith("escrow/"),
      ),
    ).toEqual([]);
  });

  it("api/ does not import indexer/", () => {
    expect(
      violations(
        (file) => file.path.startsWith("api/"),
        (spec) => spec.startsWith("indexer/"),
      ),
    ).toEqual([]);
  });

  it("chain/ does not import fastify (nor its plugins)", () => {
    expect(
      violations(
        (file) => file.path.startsWith("chain/"),
        (spec) => spec === "fastify" || spec.startsWith("fastify-") || spec.startsWith("@fastify/"),
      ),
    ).toEqual([]);
  });

  it("auth/ does not import api/", () => {
    expect(
      violations(
        (file) => file.path.startsWith("auth/"),
        (spec) => spec.startsWith("api/"),
      ),
    ).toEqual([]);
  });

  it("sees the route areas and the shared layer (the area rules are not vacuous)", () => {
    const areas = new Set(FILES.map((file) => areaOf(file.path)).filter((area) => area !== null));
    expect(areas.size).toBeGreaterThan(10);
    expect(FILES.filter((file) => file.path.startsWith("api/common/")).length).toBeGreaterThan(2);
    expect(areaOf("api/routes/subnames/state.ts")).toBe("subnames");
    expect(areaOf("api/routes/path-params.ts")).toBeNull();
  });

  it("no route area imports another area's folder", () => {
    expect(
      FILES.flatMap((file) => {
        const area = areaOf(file.path);
        if (area === null) return [];
        return file.imports
          .filter((spec) => {
            const target = areaOf(spec);
            return target !== null && target !== area;
          })
          .map((spec) => `${file.path} → ${spec}`);
      }),
    ).toEqual([]);
  });

  it("api/common/ imports no route area", () => {
    expect(
      violations(
        (file) => file.path.startsWith("api/common/"),
        (spec) => areaOf(spec) !== null,
      ),
    ).toEqual([]);
  });

  it("route handlers leave their queries to their area's queries.ts (drizzle-orm and the tables stay out)", () => {
    expect(
      violations(
        (file) => isRouteFile(file),
        (spec) => spec === "drizzle-orm" || spec.startsWith("drizzle-orm/") || spec === "db/tables.ts",
      ),
    ).toEqual([]);
  });

  it("no route file imports another route file", () => {
    expect(
      violations(isRouteFile, (spec) => {
        const target = byPath.get(spec);
        return target !== undefined && isRouteFile(target);
      }),
    ).toEqual([]);
  });
});
