// The buyer's path in a real browser (Debian's Chromium via playwright-core), against `namereg dev` itself run as a
// process: its devnet, indexer, escrow watcher and the seeded `forsale` listing, as a person gets them. The demo's
// new `buyer` signs in with the Demo wallet and starts buying forsale on its listing page; the seller proposes the
// transfer to the buyer through the console's prepare route, signed with the seller's demo key by the client SDK
// (its own page is not this test's); the page then offers paying the deposit, and once the escrow holds it,
// accepting. Checked through the API (the namespace's owner, the sale in the history, the buyer's state) and on
// chain (the registry's owner; the seller's balance up by the price less the fee, plus the bond back, paid by the
// escrow watcher). axe-core finds no serious or critical violation, no page logs an error, the page fits 390 px.

import { createApi, type NameregApi, proposeTransfer, type SignWith, signIn, unwrap } from "@namereg/client";
import { demoKeypair } from "@namereg/devnet";
import { namespaceNode, RegistryFns, xlmToStroops } from "@namereg/protocol";
import { ChainClient } from "@namereg/server";
import { DEV_START_BOUND_MS, type DevProcess, startDevProcess, withProgress } from "@namereg/server/testing";
import { type Keypair, rpc, TransactionBuilder } from "@stellar/stellar-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./fixtures/browser.ts";
import { signInAs } from "./fixtures/sign-in.ts";

/**
 * One step the page waits for: a transaction included (dev closes a ledger a second), then the indexer, the escrow
 * watcher and the page's own poll (every 3 s) each taking their next turn. Measured at most 6.4 s a step at load 24
 * on the shared two-core machine (the deposit's verdict; the sale's settlement and payout); 60 s holds on one twice as
 * slow with room for a missed poll or two.
 */
const STEP_BOUND_MS = 60_000;

function walletOf(key: Keypair, networkPassphrase: string): SignWith {
  return {
    networkPassphrase,
    account: key.publicKey(),
    signer: async (xdr, context) => {
      const tx = TransactionBuilder.fromXDR(xdr, context.networkPassphrase);
      tx.sign(key);
      return tx.toXDR();
    },
  };
}

describe("a new buyer buys forsale in Chromium, on namereg dev", () => {
  let dev: DevProcess;
  let browser: BrowserSession;
  let page: Page;
  let base = "";
  let api: NameregApi;
  let server: rpc.Server;
  let rpcUrl = "";
  let registryId = "";
  const buyerKey = demoKeypair("buyer");
  const buyer = buyerKey.publicKey();
  const sellerKey = demoKeypair("seller");
  const seller = sellerKey.publicKey();

  beforeAll(async () => {
    browser = await openBrowser({ prefix: "buyer-" });
    page = browser.page;
    dev = await startDevProcess();
    base = dev.base;
    const banner = dev.output();
    expect(banner).not.toContain("listing forsale failed");
    rpcUrl = /RPC URL\s+(\S+)/.exec(banner)?.[1] ?? "";
    registryId = /registry\s+(C[A-Z0-9]{55})/.exec(banner)?.[1] ?? "";
    expect(rpcUrl).toMatch(/^http:/);
    expect(registryId).not.toBe("");
    server = new rpc.Server(rpcUrl, { allowHttp: true });
    api = createApi({ baseUrl: base });
  }, DEV_START_BOUND_MS + 30_000);

  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  }, 30_000);

  const check = (name: string) => browser.check(name);

  const balance = async (account: string) =>
    BigInt(
      ((await server.getAccountEntry(account)) as { balance: { toString(): string } }).balance.toString(),
    );

  const buyerState = async (listingId: string) =>
    unwrap(
      api.GET("/v1/market/listings/{id}/buyers/{account}", {
        params: { path: { id: listingId, account: buyer } },
      }),
    );

  it(
    "signs in as the new buyer, pays the deposit and accepts; the escrow pays the seller",
    async () => {
      const listings = await unwrap(api.GET("/v1/market/listings"));
      const listing = listings.listings.find((l) => l.namespace === "forsale");
      if (listing === undefined) throw new Error(`forsale is not listed: ${JSON.stringify(listings)}`);
      const price = xlmToStroops(listing.priceXlm);
      const fee = (price * BigInt(listing.feeBps)) / 10_000n;
      const passphrase = (await server.getNetwork()).passphrase;
      const step = { timeout: STEP_BOUND_MS };

      await page.goto(`${base}/market/forsale`);
      await page.getByText("Sign in with your wallet to buy forsale.").waitFor();
      await signInAs(page, "buyer");

      // Before anything: no intent, no deposit, the seller named with a link to its account.
      const standing = page.getByRole("region", { name: "Where you stand" });
      // A term by its whole text: "Seller" is also the start of "Seller's proposal".
      const term = (t: string) => standing.locator("dt", { hasText: new RegExp(`^${t}$`) }).locator("+ dd");
      await term("Your intent").filter({ hasText: "None yet." }).waitFor(step);
      expect(await term("Seller").getByRole("link").getAttribute("href")).toBe(`/account/${seller}`);
      expect(await term("Your deposit").innerText()).toBe("Not paid yet.");
      await check("listing page signed in as the new buyer");

      await page.getByRole("button", { name: "Start buying forsale" }).click();
      const pay = page.getByRole("button", { name: "Pay the deposit" });
      const accept = page.getByRole("button", { name: "Accept forsale" });
      await pay.waitFor();
      await term("Your intent").filter({ hasText: "Valid until" }).waitFor(step);
      expect(await pay.isDisabled()).toBe(true);
      expect(await accept.isDisabled()).toBe(true);
      await page
        .getByText("Pay: Pay once the seller's proposal to you is live: a payment before it is sent back.")
        .waitFor();
      const minted = await buyerState(listing.id);
      expect(minted.intent).toMatchObject({ expired: false });
      expect(minted.deposit.state).toBe("none");
      expect(minted.proposal.state).toBe("none");
      await check("after starting to buy");

      // The seller proposes the transfer to the buyer: the console's prepare route, signed with the seller's key.
      const sellerWallet = walletOf(sellerKey, passphrase);
      const session = { token: await signIn(api, sellerWallet), namespace: "forsale" };
      const proposed = await proposeTransfer(api, { listingId: listing.id, buyer }, session, sellerWallet);
      expect(proposed).toMatchObject({ ok: true });
      const afterPropose = await balance(seller);
      // The bond the seller posted comes back with the sale (docs/market.md "Seller flow").
      const sellerView = await unwrap(
        api.GET("/console/market/listings", {
          headers: { authorization: `Bearer ${session.token}`, "x-service-namespace": "forsale" },
        }),
      );
      const bond = xlmToStroops(sellerView.listings.find((l) => l.id === listing.id)?.bond.amountXlm ?? "0");
      expect(bond).toBeGreaterThan(0n);

      // The page's poll sees the proposal and offers paying.
      await term("Seller's proposal").filter({ hasText: "Live: proposed to you until" }).waitFor(step);
      await page.getByRole("button", { name: "Pay the deposit", disabled: false }).waitFor(step);
      await pay.click();
      const payReview = page.getByRole("region", { name: "Review: Pay the deposit for forsale" });
      await payReview.waitFor(step);
      const reviewed = (t: string) => payReview.locator("dt", { hasText: t }).locator("+ dd").innerText();
      expect(await reviewed("Pays to")).toBe(
        `the marketplace escrow, as the deposit for forsale (${listings.escrow})`,
      );
      expect(await reviewed("Amount")).toBe(`${listing.priceXlm.replace(/\.?0+$/, "")} XLM`);
      expect(await reviewed("Memo")).toBe(
        `${minted.intent?.memoHash} (your intent's memo, which ties the payment to your intent)`,
      );
      expect(await reviewed("Signed by")).toBe(buyer);
      await check("review of the deposit");
      await payReview.getByRole("button", { name: "Sign with Demo wallet (buyer)" }).click();
      await page.getByRole("status").filter({ hasText: "Done: Pay the deposit for forsale." }).waitFor(step);
      await page.getByRole("button", { name: "Close" }).click();

      // The escrow watcher funds the deposit once the indexer has the proposal; the page then offers accepting.
      await term("Your deposit").filter({ hasText: "Held in the escrow" }).waitFor(step);
      expect(await term("Your payment").getByRole("link").getAttribute("href")).toMatch(
        /^\/tx\/[0-9a-f]{64}$/,
      );
      await page.getByRole("button", { name: "Accept forsale", disabled: false }).waitFor(step);
      expect(await pay.isDisabled()).toBe(true);
      await check("deposit held");
      await accept.click();
      const acceptReview = page.getByRole("region", { name: "Review: Accept forsale" });
      await acceptReview.waitFor(step);
      const acceptTerm = (t: string) =>
        acceptReview.locator("dt", { hasText: t }).locator("+ dd").innerText();
      expect(await acceptTerm("Contract")).toBe(`the namespace registry (${registryId})`);
      expect(await acceptTerm("Function")).toBe("accept_transfer");
      expect(await acceptTerm("Signed by")).toBe(buyer);
      await acceptReview.getByRole("button", { name: "Sign with Demo wallet (buyer)" }).click();
      await page.getByRole("status").filter({ hasText: "Done: Accept forsale." }).waitFor(step);
      await page.getByRole("button", { name: "Close" }).click();

      // The escrow settles the sale and pays the seller; the page shows it, with the payout's transaction.
      await term("Sale").filter({ hasText: "Sold to you on" }).waitFor(step);
      const paidTerm = standing.locator("dt", { hasText: /^Seller paid \(.*, paid\)$/ });
      await paidTerm.waitFor(step);
      expect(await paidTerm.innerText()).toBe(
        `Seller paid (${(Number(price - fee) / 1e7).toFixed(7)} XLM, paid)`,
      );
      expect(await paidTerm.locator("+ dd").getByRole("link").getAttribute("href")).toMatch(
        /^\/tx\/[0-9a-f]{64}$/,
      );
      // Nothing of the deposit came back to the buyer.
      expect(await standing.locator("dt", { hasText: "to you (" }).count()).toBe(0);
      await check("after the sale");

      // Through the API: the owner, the sale in the history, the buyer's state.
      const ns = await unwrap(
        api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace: "forsale" } } }),
      );
      expect(ns.operator).toBe(buyer);
      const history = await unwrap(
        api.GET("/v1/market/history/{node}", { params: { path: { node: namespaceNode("forsale") } } }),
      );
      expect(history.sales).toHaveLength(1);
      expect(history.sales[0]).toMatchObject({
        namespace: "forsale",
        priceXlm: listing.priceXlm,
        seller,
        buyer,
        badge: "escrow",
      });
      const sold = await buyerState(listing.id);
      expect(sold.listing.state).toBe("sold");
      expect(sold.deposit.state).toBe("paid_out");
      expect(sold.settlement.state).toBe("sold_to_you");
      const payout = sold.settlement.sale?.sellerPayout;
      expect(payout).toMatchObject({ purpose: "seller", destination: seller, state: "paid" });
      expect(xlmToStroops(payout?.amountXlm ?? "0")).toBe(price - fee);

      // On chain: the payout's transaction succeeded, the registry names the buyer, and the seller received the
      // price less the fee plus the bond back (the seller itself sent nothing since proposing).
      const sent = await server.getTransaction(payout?.txHash ?? "");
      expect(sent.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
      const record = await new ChainClient(rpcUrl, passphrase).read(registryId, RegistryFns.namespace, {
        node: namespaceNode("forsale"),
      });
      expect(record?.owner).toBe(buyer);
      const expected = price - fee + bond;
      await withProgress("the seller's payout and bond return on chain", STEP_BOUND_MS, async (progress) => {
        let last = -1n;
        for (;;) {
          const delta = (await balance(seller)) - afterPropose;
          if (delta !== last) progress(`seller up by ${delta} stroops`);
          last = delta;
          if (delta >= expected) return;
          // The watcher sends one payout at a time, each waiting for its ledger: ask again after a quarter of one.
          await new Promise((r) => setTimeout(r, 250));
        }
      });
      expect((await balance(seller)) - afterPropose).toBe(expected);
      expect(browser.errors).toEqual([]);
    },
    DEV_START_BOUND_MS + 10 * STEP_BOUND_MS,
  );
});
