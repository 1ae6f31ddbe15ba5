// @namereg/client as a wallet developer outside this repository gets it, by README.md's "Install" commands run as
// written (only the tarball's folder is a scratch directory, and npm is told to prefer its cache): `npm pack` from
// the checkout (which builds dist/ in `prepack` and packs a manifest without scripts or devDependencies), `npm
// init -y` and `npm pkg set type=module` in a scratch project in the system's temp directory (not under the
// workspace, so nothing resolves back into it), the tarball and the Stellar SDK installed there; then the README's
// "Resolve" example run there by Node 24 against the demo devnet and the app, a plain .mjs script resolving
// alice.acme and pay.alice.acme with resolveVerified, a TypeScript file using the package type-checked there with
// tsc, and an unsupported Node told so in one line.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveService, startLiveService } from "../test/live-service.ts";
import { killChildren, runChild } from "../test/run-child.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const README = await readFile(join(PACKAGE_DIR, "README.md"), "utf8");

/** The ```ts or ```sh block of README.md under `## <heading>`. */
function readmeBlock(heading: string, lang: "sh" | "ts"): string {
  const section = README.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  const block = section === undefined ? null : new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``).exec(section);
  if (block?.[1] === undefined) throw new Error(`README.md has no ${lang} block under "## ${heading}"`);
  return block[1];
}

/** README.md's install commands, each as its words (comments left out). */
const INSTALL = readmeBlock("Install", "sh")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"))
  .map((line) => line.trim().split(/\s+/));
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
  files: ["check.ts", "wrong.ts"],
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
      expect(INSTALL).toEqual([
        ["npm", "pack", "-w", "@namereg/client", "--pack-destination", "/tmp"],
        ["npm", "init", "-y"],
        ["npm", "pkg", "set", "type=module"],
        ["npm", "install", "/tmp/namereg-client-0.1.0.tgz", "@stellar/stellar-sdk"],
      ]);
      const inScratch = (word: string) => word.replace(/^\/tmp(?=\/|$)/, scratch);
      const [pack, init, setType, install] = INSTALL.map((words) => words.map(inScratch)) as string[][];
      // The checkout's command, run in the checkout.
      const packed = await runChild("npm", (pack as string[]).slice(1), {
        cwd: REPOSITORY,
        env: ENV,
        timeoutMs: PACK_MS,
      });
      expect(packed.code, packed.stderr).toBe(0);
      for (const step of [init, setType]) {
        const ran = await runChild("npm", (step as string[]).slice(1), {
          cwd: scratch,
          env: ENV,
          timeoutMs: RUN_MS,
        });
        expect(ran.code, ran.stderr).toBe(0);
      }
      // From npm's cache where it can, and the SDK at the workspace's version (the one the cache holds).
      const installed = await runChild(
        "npm",
        [
          ...(install as string[])
            .slice(1)
            .map((w) => (w === "@stellar/stellar-sdk" ? `${w}@${SDK_VERSION}` : w)),
          "--prefer-offline",
          "--no-audit",
          "--no-fund",
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
    // No install script (npm would warn a consumer of one) and none of the workspace's tooling.
    expect(pkg.scripts).toBeUndefined();
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.license).toBe("Apache-2.0");
    expect(await readFile(join(scratch, "node_modules/@namereg/client/LICENSE"), "utf8")).toContain(
      "Apache License",
    );
    // The project the README's commands made is an ES module project.
    expect(JSON.parse(await readFile(join(scratch, "package.json"), "utf8"))).toMatchObject({
      type: "module",
    });
    // And packing left the checkout as it was.
    const source = JSON.parse(await readFile(join(PACKAGE_DIR, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(source.scripts).toMatchObject({ prepare: "npm run build" });
    await expect(readFile(join(PACKAGE_DIR, "LICENSE"))).rejects.toThrow(/ENOENT/);
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

  it("runs the README's Resolve example there as written", { timeout: RUN_MS + 10_000 }, async () => {
    const example = readmeBlock("Resolve", "ts").replaceAll(
      '"http://localhost:8080"',
      JSON.stringify(service.baseUrl),
    );
    expect(example).not.toContain("localhost:8080");
    await writeFile(join(scratch, "resolve-example.ts"), example);
    await writeFile(
      join(scratch, "run-example.mjs"),
      `const { alice, nobody, pay } = await import("./resolve-example.ts");
console.log(JSON.stringify({ alice: alice.name, pay: pay.name, controller: pay.controller, nobody }));`,
    );
    // Node 24 strips the example's types itself (outside node_modules): no build step in the consumer's project.
    const run = await runChild(process.execPath, ["run-example.mjs"], {
      cwd: scratch,
      env: ENV,
      timeoutMs: RUN_MS,
    });
    expect(run.code, run.stderr).toBe(0);
    const last = run.stdout.trim().split("\n").at(-1) ?? "";
    expect(JSON.parse(last)).toEqual({
      alice: "alice.acme",
      pay: "pay.alice.acme",
      controller: expect.stringMatching(/^G[A-Z2-7]{55}$/),
      // name_not_found carries no detail: the example's own fallback.
      nobody: "no such name",
    });
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
      // One run over a right use and a wrong one: only the wrong one fails, so the declarations are real types
      // (not `any`) and the right use needs no Node types.
      await writeFile(join(scratch, "check.ts"), TYPED);
      await writeFile(
        join(scratch, "wrong.ts"),
        `${TYPED}\nexport const wrong: number = (await alice).account;\n`,
      );
      await writeFile(join(scratch, "tsconfig.json"), JSON.stringify(TSCONFIG));
      const checked = await runChild(process.execPath, [TSC, "-p", "."], {
        cwd: scratch,
        env: ENV,
        timeoutMs: TSC_MS,
      });
      expect(checked.stderr).toBe("");
      expect(checked.stdout.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^wrong\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'\.$/,
        ),
      ]);
      expect(checked.code).not.toBe(0);
    },
    TSC_MS,
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
