// docs/claims.md is executed as written: its TypeScript walkthrough runs as a wallet against the service on a
// real port and the demo devnet, and its curl lines run in a shell afterwards. A doc that drifts from the API
// fails here.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { applyBps, REFUND_BPS, xlmToStroops } from "@namereg/protocol";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInGroup } from "../../../../test/fixtures/child-processes.ts";
import { testConfig } from "../../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../../test/fixtures/database.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { type App, buildApp } from "../../app.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../../../../../..");
const SNIPPETS = join(ROOT, "packages/server/.doc-snippets");

function blocks(markdown: string, language: string): string[] {
  const fence = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, "g");
  return [...markdown.matchAll(fence)].map((m) => m[1] ?? "");
}

interface WalkthroughResult {
  quote: { amount: string };
  claimId: bigint;
  receipt: { outcome: string; refundAmount: string; treasuryAmount: string };
  credit: { amount: string };
  recovered: string;
}

describe("docs/claims.md", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let app: App;
  let api: string;
  let markdown: string;

  beforeAll(async () => {
    markdown = await readFile(join(ROOT, "docs/claims.md"), "utf8");
    devnet = await startNamingDevnet({ scenario: "demo", closeIntervalMs: 0 });
    database = await createTestDatabase("pglite");
    const config = testConfig({
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ALLOCATOR_ID: devnet.contracts.allocator,
    });
    const chainClient = new ChainClient(devnet.rpcUrl, devnet.networkPassphrase);
    app = await buildApp({ config, db: database, redis: null, chainClient });
    api = await app.listen({ port: 0, host: "127.0.0.1" });
    // Ledgers close on their own from here, as on a real network, so submissions become final while polled.
    devnet.setCloseInterval(100);
  });
  afterAll(async () => {
    await app?.close();
    await devnet?.stop();
    await database?.close();
  });

  it("runs the wallet walkthrough as written, then the curl lines", async () => {
    const [code, ...more] = blocks(markdown, "ts");
    expect(code).toContain("export async function claimWalkthrough");
    expect(more).toHaveLength(0);
    await mkdir(SNIPPETS, { recursive: true });
    const file = join(SNIPPETS, "claims-walkthrough.ts");
    await writeFile(file, code ?? "");
    const { claimWalkthrough } = (await import(file)) as {
      claimWalkthrough: (w: object) => Promise<WalkthroughResult>;
    };

    const fund = async () => {
      const kp = Keypair.random();
      expect((await fetch(`${devnet.rpcUrl}/friendbot?addr=${kp.publicKey()}`)).status).toBe(200);
      return kp;
    };
    const claimant = await fund();
    const fee = xlmToStroops("100");
    const refund = applyBps(fee, REFUND_BPS.Withdrawn);
    const result = await claimWalkthrough({
      api,
      rpcUrl: devnet.rpcUrl,
      allocatorId: devnet.contracts.allocator,
      claimant,
      helper: await fund(),
      label: "docsco",
    });
    expect(result.quote.amount).toBe(fee.toString());
    expect(result.claimId).toBeGreaterThan(0n);
    expect(result.receipt).toMatchObject({
      outcome: "Withdrawn",
      refundAmount: refund.toString(),
      treasuryAmount: (fee - refund).toString(),
    });
    expect(result.credit.amount).toBe(refund.toString());
    expect(result.recovered).toBe(refund.toString());

    const lines = blocks(markdown, "sh")
      .flatMap((b) => b.split("\n"))
      .filter((l) => l.startsWith("curl "));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const env = { ...process.env, API: api, LABEL: "docsco", ACCOUNT: claimant.publicKey() };
    const outputs: unknown[] = [];
    for (const line of lines) {
      const r = await runInGroup("bash", ["-c", line], { env });
      if (r.code !== 0) throw new Error(`${line} exited ${r.code ?? r.signal}: ${r.stderr}`);
      outputs.push(JSON.parse(r.stdout));
    }
    expect(outputs[0]).toMatchObject({ amount: fee.toString(), asset: "XLM", rounding: "floor" });
    expect(outputs[1]).toMatchObject({ label: "docsco", receipt: { outcome: "Withdrawn" } });
    expect(outputs[2]).toMatchObject({ payee: claimant.publicKey(), amount: "0" });
    expect(outputs[3]).toMatchObject({ error: "no_credit" });
  });
});
