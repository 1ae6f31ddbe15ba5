// A new claimant announces a claim with the fee from the claims page, in a real browser (Debian's Chromium via
// playwright-core), against an app wired as `namereg dev` wires it (the demo devnet, indexed; the Demo wallet; the
// devnet's RPC named as the public RPC). Signed in as the demo's `claimant` (funded, no claim), the person types a
// fresh namespace, a basis and evidence, reviews the fee and its refunds in words, and announces: the page checks
// the prepared transaction with verifyAnnounce against the devnet's RPC from the browser (CORS), shows it in words,
// the Demo wallet signs, and once the mirror shows the claim the page links to its card. Checked through the API
// (the queue, the live receipt) and on the chain (the allocator holds the fee; the claimant paid the fee and the
// network fee, nothing more). Then the quote changes between review and announcement: 409 claim_fee_changed, in
// words, and nothing is signed. A deployment without a public RPC refuses to announce and says why. axe-core finds
// no serious or critical violation, no page logs an error, the page fits 390 px.
import { demoKeypair, Wallet } from "@namereg/devnet";
import { AllocatorFns, TokenFns } from "@namereg/protocol";
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

/** Base units (7 decimals) as the page writes XLM: 1000000000 → "100", 5 → "0.0000005". */
const xlm = (stroops: bigint) => {
  const whole = stroops / 10_000_000n;
  const fraction = (stroops % 10_000_000n).toString().padStart(7, "0").replace(/0+$/, "");
  return fraction === "" ? `${whole}` : `${whole}.${fraction}`;
};

describe("announcing a claim with the fee in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let dev: DemoApp;
  let session: BrowserSession;
  let page: Page;
  let base: string;
  let wallet: Wallet;
  let server: rpc.Server;
  // Answers the browser logs as failed loads that a test provokes on purpose (the 409 of a changed fee).
  const refusals: string[] = [];
  const claimantKey = demoKeypair("claimant");
  const claimant = claimantKey.publicKey();
  const treasury = demoKeypair("treasury").publicKey();

  /** The app as `namereg dev` wires it, with its devnet's RPC named as the public RPC or without one. */
  const appFor = (publicRpc: boolean) =>
    listenDemoApp(chain, publicRpc ? { PUBLIC_RPC_URL: chain.devnet.rpcUrl } : {});

  beforeAll(async () => {
    session = await openBrowser({ prefix: "announce-" });
    page = session.page;
    chain = await startDemoChain();
    const { devnet } = chain;
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    dev = await appFor(true);
    base = dev.base;
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await dev?.app.close();
    await stopDemoChain(chain);
  });

  const check = (name: string) => session.check(name, { refusals });
  const signInAsClaimant = () => signInAs(page, "claimant");

  const accountBalance = async (account: string) =>
    BigInt(
      ((await server.getAccountEntry(account)) as { balance: { toString(): string } }).balance.toString(),
    );
  const heldByAllocator = () =>
    wallet.read(claimant, chain.devnet.contracts.nativeToken, TokenFns.balance, {
      id: chain.devnet.contracts.allocator,
    });
  const currentFee = async () => {
    const policy = await wallet.read(claimant, chain.devnet.contracts.allocator, AllocatorFns.fee_policy, {});
    if (policy === null) throw new Error("the demo allocator has no fee policy");
    return policy;
  };

  it("as a new claimant, announces a fresh namespace with the fee", async () => {
    const { allocator } = chain.devnet.contracts;
    const fee = await currentFee();
    const before = {
      claimant: await accountBalance(claimant),
      treasury: await accountBalance(treasury),
      allocator: await heldByAllocator(),
    };

    await page.goto(`${base}/claims`);
    const panel = page.getByRole("region", { name: "Announce a claim" });
    await panel.getByText("Sign in with your wallet to claim a namespace").waitFor();
    // The panel's own button opens the sign-in dialog where the person is (not a pointer to the header).
    await panel.getByRole("button", { name: "Sign in to claim a namespace" }).click();
    await page.getByRole("dialog", { name: "Sign in with a wallet" }).waitFor();
    await page.keyboard.press("Escape");
    await signInAsClaimant();
    const review = panel.getByRole("button", { name: "Review the fee" });
    await review.waitFor();

    // Nothing typed: each field says what it needs, in words, and the namespace field takes the focus.
    await review.click();
    await panel.getByText("Name the namespace to claim.").waitFor();
    await panel.getByText("Give at least one basis, such as trademark or prior use.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("announce-label");
    expect(await panel.getByLabel("Namespace", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await check("the announce form, refused");

    await panel.getByLabel("Namespace", { exact: true }).fill("Freshco");
    await panel.getByLabel("Basis", { exact: true }).fill("trademark, prior use");
    await panel.getByLabel("Evidence (optional)").fill("Trademark registration https://tm.example/123");
    await review.click();
    const quote = panel.getByRole("region", { name: "The claim fee for freshco" });
    await quote.getByRole("button", { name: "Announce with this fee" }).waitFor();
    const quoted = (t: string) => quote.locator("dt", { hasText: t }).locator("+ dd").innerText();
    expect(await quoted("Fee")).toBe(
      `${xlm(fee.amount)} XLM, paid from your account to the claim allocator, which holds it until the claim ends`,
    );
    expect(await termOf(quote)("Claim allocator")).toBe(allocator);
    expect((await quoted("When the claim ends")).split("\n")).toEqual([
      `If the claim is awarded to you: nothing back; ${xlm(fee.amount)} XLM to the treasury.`,
      `If you withdraw it: ${xlm((fee.amount * 8n) / 10n)} XLM back to you as credit (80 %); ${xlm(fee.amount / 5n)} XLM to the treasury.`,
      `If it expires undecided: ${xlm((fee.amount * 8n) / 10n)} XLM back to you as credit (80 %); ${xlm(fee.amount / 5n)} XLM to the treasury.`,
      `If it is rejected: ${xlm(fee.amount)} XLM back to you as credit (100 %).`,
      `If the operator marks it stuck: ${xlm(fee.amount)} XLM back to you as credit (100 %).`,
    ]);
    expect(await quoted("Treasury")).toBe(treasury);
    expect(await quoted("Claimed before")).toBe("no");
    await check("the quote of freshco");

    await quote.getByRole("button", { name: "Announce with this fee" }).click();
    const tx = page.getByRole("region", { name: "Review: Announce a claim on namespace freshco" });
    await tx.waitFor();
    const term = termOf(tx);
    expect(await term("Contract")).toBe("the claim allocator");
    expect(await term("Contract id")).toBe(allocator);
    expect(await term("Function")).toBe("announce");
    expect(await term("Signed by")).toBe(claimant);
    const says = (await term("What it does")).split("\n").filter((line) => line !== "");
    expect(says.slice(0, 4)).toEqual([
      "Announce a claim on namespace freshco, on the basis of trademark, prior use.",
      "Citing “Trademark registration”: https://tm.example/123.",
      `Pay the claim fee of ${xlm(fee.amount)} XLM from your account to the claim allocator, which holds it until the claim ends.`,
      `Checked against the chain at ${chain.devnet.rpcUrl}: this is the allocator's claim fee now, in XLM, and nothing more can be taken from your account.`,
    ]);
    await check("review of an announcement");

    await tx.getByRole("button", { name: "Sign with Demo wallet (claimant)" }).click();
    const done = page.getByRole("status").filter({ hasText: "Done: Announce a claim on namespace freshco." });
    await done.waitFor();
    const txHash = await done.locator('a[href^="/tx/"]').innerText();
    // The page follows the queue; the mirror shows the claim once the indexer has read the ledger.
    await panel.getByText("Waiting for the service to show your claim in the queue").waitFor();
    await runUntilIdle(chain.indexer);
    const link = panel.getByRole("link", { name: /^claim \d+ on freshco$/ });
    await link.waitFor();
    const id = (await link.innerText()).split(" ")[1] ?? "";
    await link.click();
    const card = page.getByRole("article", { name: `Claim ${id}: freshco` });
    await card.waitFor();
    expect(
      await card
        .locator("dt", { hasText: /^Claimant$/ })
        .locator("+ dd")
        .innerText(),
    ).toBe(claimant);
    await check("after announcing");

    // The API: the claim is pending in the queue, and the live receipt holds the fee.
    const queue = (await dev.app.inject({ url: "/v1/allocations" })).json() as {
      pending: {
        id: string;
        namespace: string;
        claimantAccount: string;
        basis: string[];
        evidence: unknown[];
      }[];
    };
    expect(queue.pending.find((c) => c.namespace === "freshco")).toMatchObject({
      id,
      claimantAccount: claimant,
      basis: ["trademark", "prior_use"],
      evidence: [{ label: "Trademark registration", url: "https://tm.example/123" }],
    });
    const receipt = await dev.app.inject({ url: "/v1/claim-fee/freshco" });
    expect(receipt.statusCode).toBe(200);
    expect((receipt.json() as { receipt: unknown }).receipt).toMatchObject({
      claimant,
      amount: fee.amount.toString(),
      outcome: "Held",
    });

    // The chain: the allocator holds the fee until the claim ends (the treasury is paid then, docs/claims.md);
    // the claimant paid exactly the fee and the network fee of this one transaction.
    const included = await server.getTransaction(txHash);
    if (included.status !== "SUCCESS") throw new Error(`the announcement is ${included.status}`);
    const networkFee = BigInt(included.resultXdr.feeCharged.toString());
    expect(await heldByAllocator()).toBe(before.allocator + fee.amount);
    expect(await accountBalance(treasury)).toBe(before.treasury);
    expect(await accountBalance(claimant)).toBe(before.claimant - fee.amount - networkFee);
  }, 300_000);

  it("refuses, in words, when the claim fee changed after it was reviewed", async () => {
    const fee = await currentFee();
    const panel = page.getByRole("region", { name: "Announce a claim" });
    // The finished announcement's result stays on screen and blocks nothing: the form is free again.
    await panel.getByLabel("Namespace", { exact: true }).fill("laterco");
    await panel.getByLabel("Basis", { exact: true }).fill("brand");
    await panel.getByLabel("Evidence (optional)").fill("");
    await panel.getByRole("button", { name: "Review the fee" }).click();
    const quote = panel.getByRole("region", { name: "The claim fee for laterco" });
    const announce = quote.getByRole("button", { name: "Announce with this fee" });
    await announce.waitFor();

    // The operator raises the fee between the review and the announcement.
    const raised = fee.amount + 100_000_000n;
    await wallet.invoke(demoKeypair("admin"), chain.devnet.contracts.allocator, AllocatorFns.set_fee_policy, {
      token: fee.token,
      amount: raised,
      recipient: fee.recipient,
    });
    const balance = await accountBalance(claimant);
    refusals.push(`status of 409 (Conflict) (${base}/console/register/announce/prepare)`);
    await announce.click();
    const alert = panel.getByRole("alert").filter({ hasText: "The claim fee changed since you reviewed it" });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`Details: The fee is now ${xlm(raised)} XLM.`);
    expect(await alert.getAttribute("data-code")).toBe("claim_fee_changed");
    await check("an announcement refused for a changed fee");
    // Nothing was signed or sent: no claim, no receipt, the same balance.
    expect(await accountBalance(claimant)).toBe(balance);
    expect(
      ((await dev.app.inject({ url: "/v1/claim-fee/laterco" })).json() as { receipt: unknown }).receipt,
    ).toBeNull();

    // Reviewing again quotes the new fee.
    await panel.getByRole("button", { name: "Review the fee" }).click();
    await quote
      .locator("dt", { hasText: "Fee" })
      .locator("+ dd")
      .filter({ hasText: `${xlm(raised)} XLM, paid from your account` })
      .waitFor();
  }, 300_000);

  it("does not announce where the deployment names no public RPC, and says why", async () => {
    const bare = await appFor(false);
    try {
      await page.goto(`${bare.base}/claims`);
      await signInAsClaimant();
      const panel = page.getByRole("region", { name: "Announce a claim" });
      await panel.getByText("This service names no public Stellar RPC").waitFor();
      expect(await panel.getByRole("button", { name: "Review the fee" }).count()).toBe(0);
      await check("no public RPC");
    } finally {
      await bare.app.close();
    }
  }, 300_000);
});
