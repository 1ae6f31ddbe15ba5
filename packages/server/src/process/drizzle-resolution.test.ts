import { describe, expect, it, vi } from "vitest";
import { resolveDrizzle } from "./drizzle-resolution.ts";

const drizzleFile = (path: string) => new URL(path, import.meta.resolve("drizzle-orm")).href;

describe("drizzle-orm's relative imports, resolved directly", () => {
  const context = (parentURL: string | undefined) => ({
    parentURL,
    conditions: ["node", "import"],
    importAttributes: {},
  });

  it("resolves a relative .js import inside drizzle-orm to the file Node would load, as an ES module", () => {
    const next = vi.fn();
    const parent = drizzleFile("pg-core/columns/text.js");
    const answer = resolveDrizzle("../../entity.js", context(parent), next);
    expect(answer).toEqual({ url: drizzleFile("entity.js"), format: "module", shortCircuit: true });
    // The same file Node's own resolution finds for that import.
    expect(answer.url).toBe(import.meta.resolve("drizzle-orm/entity"));
    expect(next).not.toHaveBeenCalled();
  });

  it("leaves every other import to Node: bare names, other packages, our files, paths out of the package", () => {
    const next = vi.fn(() => ({ url: "file:///elsewhere.js" }));
    const inside = drizzleFile("pg-core/index.js");
    for (const [specifier, parent] of [
      ["drizzle-orm/pg-core", import.meta.url],
      ["./sql/sql.js", import.meta.url],
      ["pg", inside],
      ["./table", inside],
      ["../../../zod/index.js", inside],
      ["./entity.js", undefined],
    ] as const) {
      next.mockClear();
      expect(resolveDrizzle(specifier, context(parent), next)).toEqual({ url: "file:///elsewhere.js" });
      expect(next).toHaveBeenCalledWith(specifier, context(parent));
    }
  });
});
