import { namespaceNode } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { parseLegacyLabels } from "./legacy-labels.ts";

describe("parseLegacyLabels", () => {
  it("verifies bare labels and node-label pairs by hashing, skipping comments and blank lines", () => {
    const { labels, problems } = parseLegacyLabels(
      `# legacy namespaces\n\noldco   # seen in 2024\n${namespaceNode("acme").toUpperCase()} acme\r\n`,
    );
    expect(problems).toEqual([]);
    expect([...labels]).toEqual([
      [namespaceNode("oldco"), "oldco"],
      [namespaceNode("acme"), "acme"],
    ]);
  });

  it("reports every entry that does not verify, by line, and uses none of them", () => {
    const { labels, problems } = parseLegacyLabels(
      [`${namespaceNode("acme")} acmee`, "Not A Label", "xyz oldco", "a b c", "ok"].join("\n"),
    );
    expect([...labels.values()]).toEqual(["ok"]);
    expect(problems).toEqual([
      {
        line: 1,
        text: `${namespaceNode("acme")} acmee`,
        reason: `acmee hashes to ${namespaceNode("acmee")}, not to the stated ${namespaceNode("acme")}`,
      },
      { line: 2, text: "Not A Label", reason: "expected `<label>` or `<node hex> <label>`" },
      { line: 3, text: "xyz oldco", reason: "the node must be 64 hex characters" },
      { line: 4, text: "a b c", reason: "expected `<label>` or `<node hex> <label>`" },
    ]);
  });

  it("rejects a label the protocol does not allow", () => {
    expect(parseLegacyLabels("Upper").problems).toEqual([
      { line: 1, text: "Upper", reason: '"Upper" is not a valid label' },
    ]);
  });
});
