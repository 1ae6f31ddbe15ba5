// The claimant's controls of the claims page in a real browser (Debian's Chromium via playwright-core), against an
// app wired as `namereg dev` wires it (the demo devnet, indexed; the Demo wallet). bob announces a claim on the
// chain (the fee of the demo allocator's policy); signed in with the Demo wallet as bob, the page offers to
// withdraw it: the review names the allocator and `withdraw`, and once signed the claim is Withdrawn on the chain
// (the API's live receipt) with 80 % of the fee credited; the page then recovers that credit, and bob's balance
// grows by it. axe-core finds no serious or critical violation, no page logs an error, the page fits 390 px.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { demoKeypair, Wallet } from "@namereg/devnet";
import { AllocatorFns } from "@namereg/protocol";
import { rpc } from "@stellar/stellar-sdk";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../test/fixtures/demo.ts";
import { ChainClient } from "../../chain/chain-client.ts";
import { RpcClient } from "../../chain/rpc-client.ts";
import { contractEnv, demoWalletOf } from "../../runtime/commands/dev.ts";
import { type App, buildApp } from "../app.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

describe("the claimant's controls in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let app: App;
  let browser: Browser;
  let page: Page;
  let base: string;
  let wallet: Wallet;
  let server: rpc.Server;
  const consoleErrors: string[] = [];
  const bobKey = demoKeypair("bob");
  const bob = bobKey.publicKey();

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
      );
    chain = await indexDemo("pglite");
    const { devnet } = chain;
    devnet.setCloseInterval(250);
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    const head = new RpcClient(devnet.rpcUrl, { retries: 0 });
    app = await buildApp({
      config: testConfig({
        RPC_URL: devnet.rpcUrl,
        NETWORK_PASSPHRASE: devnet.networkPassphrase,
        ...contractEnv(devnet),
      }),
      db: chain.database,
      redis: null,
      chain: { head: () => head.getLatestLedger() },
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
      demoWallet: demoWalletOf(devnet),
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  async function check(name: string): Promise<void> {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } })
          .axe;
        return (await axe.run()).violations;
      });
      const serious = violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
      expect(serious, `${name} at ${width} px`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    expect(consoleErrors, name).toEqual([]);
  }

  const balance = async (account: string) =>
    BigInt(
      ((await server.getAccountEntry(account)) as { balance: { toString(): string } }).balance.toString(),
    );

  it("as bob, withdraws his own claim and recovers the credit", async () => {
    const { allocator } = chain.devnet.contracts;
    const fee = await wallet.read(bob, allocator, AllocatorFns.fee_policy, {});
    if (fee === null) throw new Error("the demo allocator has no fee policy");
    const { value: id } = await wallet.invoke(bobKey, allocator, AllocatorFns.announce, {
      claimant: bob,
      label: "bobclaim",
      basis: ["trademark"],
      evidence: [],
      fee,
    });
    await runUntilIdle(chain.indexer);

    await page.goto(`${base}/claims`);
    await page.getByText("Sign in with your wallet to withdraw your own claims").waitFor();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in with a wallet" });
    await dialog.getByLabel("Act as").selectOption("bob");
    await dialog.getByRole("button", { name: "Sign in with the Demo wallet" }).click();
    await page.getByRole("region", { name: "Wallet session" }).waitFor();
    const withdraw = page.getByRole("button", { name: `Withdraw claim ${id}` });
    await withdraw.waitFor();
    await check("claims page signed in as bob");

    await withdraw.click();
    const review = page.getByRole("region", { name: `Review: Withdraw claim ${id} on bobclaim` });
    await review.waitFor();
    const term = (t: string) => review.locator("dt", { hasText: t }).locator("+ dd").innerText();
    expect(await term("Contract")).toBe(`the claim allocator (${allocator})`);
    expect(await term("Function")).toBe("withdraw");
    expect(await term("Signed by")).toBe(bob);
    await check("review of a withdrawal");
    await review.getByRole("button", { name: "Sign with Demo wallet (bob)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Done: Withdraw claim ${id} on bobclaim.` })
      .waitFor();

    // The chain (the API's live receipt) has it withdrawn, 80 % of the fee credited to bob.
    const receipt = (await app.inject({ url: "/v1/claim-fee/bobclaim" })).json() as {
      receipt: { outcome: string; refundAmount: string };
    };
    expect(receipt.receipt.outcome).toBe("Withdrawn");
    const credit = BigInt(receipt.receipt.refundAmount);
    expect(credit).toBe((fee.amount * 8000n) / 10000n);

    await page.getByRole("button", { name: "Close" }).click();
    const recover = page.getByRole("button", { name: "Recover the credit" });
    await recover.waitFor();
    const before = await balance(bob);
    await recover.click();
    const recovery = page.getByRole("region", { name: "Review: Recover your claim-fee credit" });
    await recovery.waitFor();
    expect(await recovery.locator("dt", { hasText: "Function" }).locator("+ dd").innerText()).toBe(
      "claim_fee_credit",
    );
    await recovery.getByRole("button", { name: "Sign with Demo wallet (bob)" }).click();
    await page.getByRole("status").filter({ hasText: "Done: Recover your claim-fee credit." }).waitFor();
    const after = await balance(bob);
    // bob paid the network fee of the recovery out of the credit: the balance grew by the credit less that fee.
    expect(after - before).toBeGreaterThan(credit - 10_000_000n);
    expect(after - before).toBeLessThanOrEqual(credit);
    const left = (await app.inject({ url: `/v1/claim-fee/credit/${bob}` })).json() as { amount: string };
    expect(left.amount).toBe("0");
    await check("after recovering the credit");
  }, 300_000);
});
