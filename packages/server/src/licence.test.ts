// The licence (Apache-2.0, as the Stellar SDK's): the full text at the root, and every package of the workspace
// says so in its manifest, so a package published or copied on its own still states it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function manifests(): string[] {
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] };
  return ["package.json", ...root.workspaces.map((dir) => join(dir, "package.json"))];
}

describe("licence", () => {
  it("LICENSE at the root is the Apache License 2.0, in full", () => {
    const text = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(text).toContain("Apache License\n                           Version 2.0, January 2004");
    expect(text).toContain("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    expect(text).toContain("END OF TERMS AND CONDITIONS");
    expect(text.split("\n").length).toBeGreaterThan(190);
  });

  it("every package.json of the workspace states Apache-2.0", () => {
    const list = manifests();
    expect(list.length).toBe(7);
    expect(readdirSync(join(ROOT, "packages")).length).toBe(5);
    for (const file of list) {
      const manifest = JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { license?: string };
      expect({ file, license: manifest.license }).toEqual({ file, license: "Apache-2.0" });
    }
  });
});
