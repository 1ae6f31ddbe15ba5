// The claimant's controls of the claims page in a real browser (Debian's Chromium via playwright-core), against an
// app wired as `namereg dev` wires it (the demo devnet, indexed; the Demo wallet). bob announces a claim on the
// chain (the fee of the demo allocator's policy); signed in with the Demo wallet as bob, the page offers to
// withdraw it: the review names the allocator and `withdraw`, and once signed the claim is Withdrawn on the chain
// (the API's live receipt) with 80 % of the fee credited; the page then recovers that credit, and bob's balance
// grows by it. axe-core finds no serious or critical violation, no page logs an error, the page fits 390 px.
import { demoKeypair, Wallet } from "@namereg/devnet";
import { AllocatorFns } from "@namereg/protocol";
import {
  type DemoApp,
  type IndexedDemoChain,
  listenDemoApp,
  runUntilIdle,
  startDemoChain,
  stopDemoChain,
} from "@namereg/server/testing";
import { rpc } from "@stellar/stellar-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./fixtures/browser.ts";
import { termOf } from "./fixtures/review.ts";
import { signInAs } from "./fixtures/sign-in.ts";

describe("the claimant's controls in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let dev: DemoApp;
  let session: BrowserSession;
  let page: Page;
  let base: string;
  let wallet: Wallet;
  let server: rpc.Server;
  const bobKey = demoKeypair("bob");
  const bob = bobKey.publicKey();

  beforeAll(async () => {
    session = await openBrowser({ prefix: "claimant-" });
    page = session.page;
    chain = await startDemoChain();
    const { devnet } = chain;
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    dev = await listenDemoApp(chain);
    base = dev.base;
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await dev?.app.close();
    await stopDemoChain(chain);
  });

  const check = (name: string) => session.check(name);

  /** An amount in stroops as the page writes it: "8 XLM", "0.8 XLM". */
  const xlm = (stroops: bigint) =>
    `${(Number(stroops) / 1e7).toLocaleString("en-US", { maximumFractionDigits: 7 })} XLM`;

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
    await signInAs(page, "bob");
    const withdraw = page.getByRole("button", { name: `Withdraw claim ${id}` });
    await withdraw.waitFor();
    await check("claims page signed in as bob");

    await withdraw.click();
    const review = page.getByRole("region", { name: `Review: Withdraw claim ${id} on bobclaim` });
    await review.waitFor();
    const term = termOf(review);
    expect(await term("Contract")).toBe("the claim allocator");
    expect(await term("Contract id")).toBe(allocator);
    expect(await term("Function")).toBe("withdraw");
    expect(await term("Signed by")).toBe(bob);
    await check("review of a withdrawal");
    await review.getByRole("button", { name: "Sign with Demo wallet (bob)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Done: Withdraw claim ${id} on bobclaim.` })
      .waitFor();

    // The chain (the API's live receipt) has it withdrawn, 80 % of the fee credited to bob.
    const receipt = (await dev.app.inject({ url: "/v1/claim-fee/bobclaim" })).json() as {
      receipt: { outcome: string; refundAmount: string };
    };
    expect(receipt.receipt.outcome).toBe("Withdrawn");
    const credit = BigInt(receipt.receipt.refundAmount);
    expect(credit).toBe((fee.amount * 8000n) / 10000n);
    // What bob reads before his next step: the claim is no longer his open claim, nor in the queue — at once,
    // though this app's mirror has not indexed the withdrawal (no indexer runs here) — and the credit it left.
    await page.getByText("You have no open claim.").waitFor();
    expect(await withdraw.count()).toBe(0);
    expect(await page.getByRole("article", { name: `Claim ${id}: bobclaim` }).count()).toBe(0);
    await page.getByText(`Claim-fee credit waiting for you: ${xlm(credit)}.`).waitFor();
    const recover = page.getByRole("button", { name: "Recover the credit" });
    await recover.waitFor();
    const before = await balance(bob);
    await recover.click();
    const recovery = page.getByRole("region", { name: "Review: Recover your claim-fee credit" });
    await recovery.waitFor();
    expect(await termOf(recovery)("Function")).toBe("claim_fee_credit");
    await recovery.getByRole("button", { name: "Sign with Demo wallet (bob)" }).click();
    await page.getByRole("status").filter({ hasText: "Done: Recover your claim-fee credit." }).waitFor();
    await page.getByText("Claim-fee credit waiting for you: 0 XLM.").waitFor();
    expect(await recover.count()).toBe(0);
    const after = await balance(bob);
    // bob paid the network fee of the recovery out of the credit: the balance grew by the credit less that fee.
    expect(after - before).toBeGreaterThan(credit - 10_000_000n);
    expect(after - before).toBeLessThanOrEqual(credit);
    const left = (await dev.app.inject({ url: `/v1/claim-fee/credit/${bob}` })).json() as { amount: string };
    expect(left.amount).toBe("0");
    await check("after recovering the credit");
  }, 300_000);
});
