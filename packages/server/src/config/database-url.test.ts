import { describe, expect, it } from "vitest";
import { databaseUrlKind, pgliteDataDir, redactUrl } from "./database-url.ts";

describe("database URLs", () => {
  it.each([
    ["postgres://u@h:5432/d", "postgres"],
    ["postgresql://u:p@h/d?sslmode=require", "postgres"],
    ["memory://", "pglite"],
    ["file:///var/lib/namereg/pglite", "pglite"],
    ["file:///", null],
    ["mysql://h/d", null],
    ["./data/pglite", null],
    ["", null],
  ])("%j is %s", (url, kind) => {
    expect(databaseUrlKind(url)).toBe(kind);
  });

  it("gives PGlite a directory path or memory://", () => {
    expect(pgliteDataDir("file:///var/lib/x%20y")).toBe("/var/lib/x y");
    expect(pgliteDataDir("memory://")).toBe("memory://");
  });

  it("masks passwords, in the authority or the query", () => {
    expect(redactUrl("postgres://app:secret@db/x")).toBe("postgres://app:***@db/x");
    expect(redactUrl("postgres://db/x?user=app&password=secret")).toBe(
      "postgres://db/x?user=app&password=***",
    );
    expect(redactUrl("redis://cache:6379")).toBe("redis://cache:6379");
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
