// @namereg/client as a wallet developer outside this repository gets it: `npm pack` (which builds dist/ through
// `prepare`), the tarball and the Stellar SDK installed into a scratch project in the system's temp directory (not
// under the workspace, so nothing resolves back into it), then a plain .mjs script run there by Node 24 — which
// strips no types under node_modules — resolving alice.acme and pay.alice.acme with resolveVerified against the
// demo devnet and the app; a TypeScript file using the package type-checked there with tsc; and an unsupported
// Node told so in one line.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveService, startLiveService } from "../test/live-service.ts";
import { killChildren, runChild } from "../test/run-child.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const SDK_VERSION = await sdkVersion();
const TSC = require.resolve("typescript/bin/tsc");
// npm scripts (the package's `prepare`) must run on this Node 24, not whatever `node` comes first on PATH.
const ENV = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` };
// Measured on the two-core machine shared with other test runs: pack (with the build) 12 s, install 5 s, a script
// 3 s, tsc 1 s alone and 20 s under load. Each bound is several times the worst of these.
const PACK_MS = 180_000;
const INSTALL_MS = 180_000;
const RUN_MS = 60_000;
const TSC_MS = 120_000;

const SCRIPT = `
import { createApi, resolveVerified, NameregError } from "@namereg/client";
const api = createApi({ baseUrl: process.env.BASE_URL });
const options = {
  rpcUrl: process.env.RPC_URL,
  networkPassphrase: process.env.PASSPHRASE,
  lookupId: process.env.LOOKUP_ID,
};
const alice = await resolveVerified(api, "alice.acme", options);
const pay = await resolveVerified(api, "pay.alice.acme", options);
const missing = await resolveVerified(api, "nobody.acme", options).catch((error) => error);
console.log(JSON.stringify({
  alice: { name: alice.name, account: alice.account, chain: alice.chain.address },
  pay: { name: pay.name, account: pay.account, chain: pay.chain.address },
  missing: { typed: missing instanceof NameregError, status: missing.status, code: missing.code },
}));
`;

const TYPED = `
import { createApi, resolveVerified, verifyPrepared, type VerifiedResolution } from "@namereg/client";
const api = createApi({ baseUrl: "https://names.example" });
const options = { rpcUrl: "https://rpc.example", networkPassphrase: "p", lookupId: "C" };
export const alice: Promise<VerifiedResolution> = resolveVerified(api, "alice.acme", options);
export async function payTo(): Promise<string> {
  const child = await resolveVerified(api, "pay.alice.acme", options);
  return child.controller;
}
export const check = (xdr: string) =>
  verifyPrepared(xdr, { networkPassphrase: "p", source: "G", contractId: "C", function: "f", args: [] }).feeStroops;
`;

const TSCONFIG = {
  compilerOptions: {
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    noEmit: true,
    lib: ["es2022", "dom"],
    // A browser wallet's project has no Node types: the declarations must not need them.
    types: [],
  },
  files: ["check.ts"],
};

/** The version of the SDK the workspace installed (its exports hide package.json): that one is in npm's cache. */
async function sdkVersion(): Promise<string> {
  let dir = dirname(require.resolve("@stellar/stellar-sdk"));
  for (;;) {
    const manifest = await readFile(join(dir, "package.json"), "utf8").catch(() => null);
    const pkg = manifest === null ? null : (JSON.parse(manifest) as { name?: string; version?: string });
    if (pkg?.name === "@stellar/stellar-sdk" && pkg.version !== undefined) return pkg.version;
    if (dirname(dir) === dir) throw new Error("@stellar/stellar-sdk's package.json not found");
    dir = dirname(dir);
  }
}

describe("the packed @namereg/client outside the workspace", () => {
  let scratch: string;
  let service: LiveService;

  beforeAll(
    async () => {
      scratch = await mkdtemp(join(tmpdir(), "namereg-client-"));
      const serviceStarted = startLiveService();
      serviceStarted.catch(() => {});
      const packed = await runChild("npm", ["pack", "--json", "--pack-destination", scratch], {
        cwd: PACKAGE_DIR,
        env: ENV,
        timeoutMs: PACK_MS,
      });
      expect(packed.code, packed.stderr).toBe(0);
      // npm prints the build's own output before its JSON.
      const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string }[];
      if (tarball === undefined) throw new Error(`npm pack named no tarball: ${packed.stdout}`);
      await writeFile(
        join(scratch, "package.json"),
        JSON.stringify({ name: "scratch", private: true, type: "module" }),
      );
      const installed = await runChild(
        "npm",
        [
          "install",
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          `./${tarball.filename}`,
          `@stellar/stellar-sdk@${SDK_VERSION}`,
        ],
        { cwd: scratch, env: ENV, timeoutMs: INSTALL_MS },
      );
      expect(installed.code, installed.stderr).toBe(0);
      service = await serviceStarted;
    },
    PACK_MS + INSTALL_MS + 120_000,
  );

  afterAll(async () => {
    killChildren();
    await service?.close();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it("ships what its exports name, and no source", async () => {
    const pkg = JSON.parse(
      await readFile(join(scratch, "node_modules/@namereg/client/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(pkg.private).toBeUndefined();
    expect(pkg.exports).toEqual({
      ".": { types: "./dist/types/index.d.ts", default: "./dist/index.js" },
      "./browser": { types: "./dist/types/index.d.ts", default: "./dist/browser.js" },
      "./package.json": "./package.json",
    });
    expect(pkg.dependencies).toEqual({ "openapi-fetch": expect.any(String) });
    expect(pkg.peerDependencies).toEqual({ "@stellar/stellar-sdk": "^17.2.0" });
    for (const file of [
      "dist/index.js",
      "dist/client.js",
      "dist/client.js.map",
      "dist/browser.js",
      "dist/types/index.d.ts",
    ]) {
      await expect(readFile(join(scratch, "node_modules/@namereg/client", file))).resolves.toBeInstanceOf(
        Buffer,
      );
    }
    await expect(readFile(join(scratch, "node_modules/@namereg/client/src/index.ts"))).rejects.toThrow(
      /ENOENT/,
    );
  });

  it("runs a plain .mjs script: resolveVerified on alice.acme and pay.alice.acme, typed errors", {
    timeout: RUN_MS + 10_000,
  }, async () => {
    await writeFile(join(scratch, "check.mjs"), SCRIPT);
    const run = await runChild(process.execPath, ["check.mjs"], {
      cwd: scratch,
      env: {
        ...ENV,
        BASE_URL: service.baseUrl,
        RPC_URL: service.rpcUrl,
        PASSPHRASE: service.networkPassphrase,
        LOOKUP_ID: service.lookupId,
      },
      timeoutMs: RUN_MS,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as {
      alice: { name: string; account: string; chain: string };
      pay: { name: string; account: string; chain: string };
      missing: unknown;
    };
    expect(out.alice.name).toBe("alice.acme");
    expect(out.alice.account).toMatch(/^G[A-Z2-7]{55}$/);
    expect(out.alice.chain).toBe(out.alice.account);
    expect(out.pay.name).toBe("pay.alice.acme");
    expect(out.pay.chain).toBe(out.pay.account);
    expect(out.missing).toEqual({ typed: true, status: 404, code: "name_not_found" });
  });

  it(
    "type-checks a TypeScript file that uses it, with no Node types",
    async () => {
      await writeFile(join(scratch, "check.ts"), TYPED);
      await writeFile(join(scratch, "tsconfig.json"), JSON.stringify(TSCONFIG));
      const checked = await runChild(process.execPath, [TSC, "-p", "."], {
        cwd: scratch,
        env: ENV,
        timeoutMs: TSC_MS,
      });
      expect(checked.stdout + checked.stderr).toBe("");
      expect(checked.code).toBe(0);
      // And a wrong use is caught: the declarations are real types, not `any`.
      await writeFile(
        join(scratch, "check.ts"),
        `${TYPED}\nexport const wrong: number = (await alice).account;\n`,
      );
      const wrong = await runChild(process.execPath, [TSC, "-p", "."], {
        cwd: scratch,
        env: ENV,
        timeoutMs: TSC_MS,
      });
      expect(wrong.stdout).toMatch(
        /check\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
    },
    2 * TSC_MS,
  );

  it("tells an unsupported Node in one line which Node lines it needs", {
    timeout: RUN_MS + 10_000,
  }, async () => {
    // Node 20 as far as the package can tell (the machine may have no old Node to run).
    const asNode20 = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})`;
    const run = await runChild(process.execPath, ["--import", asNode20, "check.mjs"], {
      cwd: scratch,
      env: ENV,
      timeoutMs: RUN_MS,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n").filter((line) => line.includes("@namereg/client"));
    expect(lines).toEqual([
      "[Error: @namereg/client needs Node.js 22.12+ or 24+ (Node 20 is past its end of life); this is Node.js 20.20.2]",
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
