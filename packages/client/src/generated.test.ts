// The committed types are what openapi-typescript makes of the committed docs/openapi.json (the server's test
// checks that document against the routes): a route change without `npm run openapi` and
// `npm run generate -w @namereg/client` fails one of the two.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const COMMITTED = join(PACKAGE, "src/generated/openapi.ts");
// The CLI of the installed openapi-typescript, wherever npm placed it (hoisted or under this package).
const BIN = join(
  dirname(createRequire(import.meta.url).resolve("openapi-typescript/package.json")),
  "bin/cli.js",
);

it("src/generated/openapi.ts is current with docs/openapi.json", () => {
  const dir = mkdtempSync(join(tmpdir(), "namereg-types-"));
  try {
    const fresh = join(dir, "openapi.ts");
    // Synchronous, so it cannot outlive the test; the limit keeps a hung generator from outliving Vitest's timeout
    // (which cannot interrupt synchronous code): one step of a few seconds, given a hundred times that.
    execFileSync(process.execPath, [BIN, "../../docs/openapi.json", "-o", fresh], {
      cwd: PACKAGE,
      stdio: "pipe",
      timeout: 120_000,
      killSignal: "SIGKILL",
    });
    if (readFileSync(fresh, "utf8") !== readFileSync(COMMITTED, "utf8"))
      expect.fail(
        "packages/client/src/generated/openapi.ts is stale: run `npm run generate -w @namereg/client`",
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
