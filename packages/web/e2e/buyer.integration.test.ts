// The buyer's path in a real browser (Debian's Chromium via playwright-core), against `namereg dev` itself run as a
// process: its devnet, indexer, escrow watcher and the seeded `forsale` listing, as a person gets them. The demo's
// new `buyer` follows the market list's "Buy forsale", signs in with the Demo wallet and starts buying; the seller
// proposes the transfer to the buyer through the console's prepare route, signed with the seller's demo key by the
// client SDK, while the seller's own namespace page watches in a second tab; the buyer's stepper then makes paying
// the deposit, and once the escrow holds it, accepting, the buyer's turn — and the seller's stepper agrees at each
// step; after the sale the buyer reads a receipt and the seller "Sold to … — you received …". Five clicks after
// signing in. Checked through the API (the namespace's owner, the sale in the history, the buyer's state) and on
// chain (the registry's owner; the seller's balance up by the price less the fee, plus the bond back, paid by the
// escrow watcher). axe-core finds no serious or critical violation, no page logs an error, the page fits 390 px.
// And the security headers as `namereg dev` sends them (plugins/web-headers.ts): every page, the Demo wallet's
// sign-in, the wallet picker and /docs/ load with no CSP violation, and a page of another origin cannot frame one.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApi, type NameregApi, proposeTransfer, signIn, unwrap } from "@namereg/client";
import { demoKeypair } from "@namereg/devnet";
import { namespaceNode, RegistryFns, xlmToStroops } from "@namereg/protocol";
import { ChainClient } from "@namereg/server";
import {
  DEV_START_BOUND_MS,
  type DevProcess,
  keypairWallet,
  startDevProcess,
  withProgress,
} from "@namereg/server/testing";
import { rpc } from "@stellar/stellar-sdk";
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

  /** The stepper's steps of `page` as `id:status`, in order (data-step, data-status: what the person sees as ✓ / now). */
  const stepsOf = async (p: Page, label: string) =>
    p
      .getByRole("list", { name: label })
      .locator(":scope > li")
      .evaluateAll((items) =>
        items.map((li) => `${li.getAttribute("data-step")}:${li.getAttribute("data-status")}`),
      );
  const waitSteps = async (p: Page, label: string, expected: readonly string[]) => {
    await expect.poll(() => stepsOf(p, label), { timeout: STEP_BOUND_MS }).toEqual(expected);
  };

  it(
    "signs in as the new buyer, pays the deposit and accepts in 5 clicks; the stepper and the seller's panel agree at each step",
    async () => {
      const listings = await unwrap(api.GET("/v1/market/listings"));
      const listing = listings.listings.find((l) => l.namespace === "forsale");
      if (listing === undefined) throw new Error(`forsale is not listed: ${JSON.stringify(listings)}`);
      const price = xlmToStroops(listing.priceXlm);
      const fee = (price * BigInt(listing.feeBps)) / 10_000n;
      const passphrase = (await server.getNetwork()).passphrase;
      const step = { timeout: STEP_BOUND_MS };
      // What the person writes: 500 XLM, 487.5 XLM — never 7 decimals.
      const xlm = (stroops: bigint) => `${(Number(stroops) / 1e7).toLocaleString("en-US")} XLM`;

      // The seller watches their namespace page in another tab, signed in as the seller.
      const sellerPage = await browser.newPage();
      await sellerPage.goto(`${base}/namespace/forsale`);
      await signInAs(sellerPage, "seller");
      await waitSteps(sellerPage, "Steps to sell", [
        "list:done",
        "bond:done",
        "buyer:waiting",
        "offer:next",
        "deposit:next",
        "accept:next",
      ]);
      await browser.check("seller's panel, listed, before any buyer", { page: sellerPage });

      // The market list offers Buy; it leads straight to the buying steps.
      await page.goto(`${base}/market`);
      const buy = page.getByRole("link", { name: "Buy forsale" });
      expect(await buy.getAttribute("href")).toBe("/market/forsale#buy");
      await check("market list");
      await buy.click();
      await page.getByText("Sign in with your wallet to buy forsale.").waitFor();
      await signInAs(page, "buyer");
      let clicks = 0;
      const click = async (locator: ReturnType<Page["getByRole"]>) => {
        clicks++;
        await locator.click();
      };

      // Before anything: asking to buy is the buyer's turn; nothing else is.
      const BUY = "Steps to buy";
      await waitSteps(page, BUY, [
        "request:now",
        "proposal:next",
        "deposit:next",
        "accept:next",
        "payout:next",
      ]);
      const pay = page.getByRole("button", { name: "Pay the deposit" });
      const accept = page.getByRole("button", { name: "Accept forsale" });
      expect(await pay.isDisabled()).toBe(true);
      expect(await accept.isDisabled()).toBe(true);
      await check("listing page signed in as the new buyer");

      await click(page.getByRole("button", { name: "Start buying forsale" }));
      await waitSteps(page, BUY, [
        "request:done",
        "proposal:waiting",
        "deposit:next",
        "accept:next",
        "payout:next",
      ]);
      // A disabled button says why, beside it.
      expect(await pay.isDisabled()).toBe(true);
      expect(await page.locator("#buy-pay-why").innerText()).toBe(
        "Pay once the seller's proposal to you is live: a payment before it is sent back.",
      );
      const minted = await buyerState(listing.id);
      expect(minted.intent).toMatchObject({ expired: false });
      expect(minted.deposit.state).toBe("none");
      await check("after starting to buy");
      await waitSteps(sellerPage, "Steps to sell", [
        "list:done",
        "bond:done",
        "buyer:done",
        "offer:now",
        "deposit:next",
        "accept:next",
      ]);
      await browser.check("seller's panel, a buyer asked", { page: sellerPage });

      // The seller offers the namespace to the buyer: the console's prepare route, signed with the seller's key.
      const sellerWallet = keypairWallet(sellerKey, passphrase);
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

      // The page's poll sees the offer: paying is the buyer's turn, its button enabled.
      await waitSteps(page, BUY, [
        "request:done",
        "proposal:done",
        "deposit:now",
        "accept:next",
        "payout:next",
      ]);
      await waitSteps(sellerPage, "Steps to sell", [
        "list:done",
        "bond:done",
        "buyer:done",
        "offer:done",
        "deposit:waiting",
        "accept:next",
      ]);
      await browser.check("seller's panel, offered", { page: sellerPage });
      await click(pay);
      const payReview = page.getByRole("region", { name: "Review: Pay the deposit for forsale" });
      await payReview.waitFor(step);
      const reviewed = (t: string) =>
        payReview
          .locator("dt", { hasText: new RegExp(`^${t}$`) })
          .first()
          .locator("+ dd")
          .innerText();
      expect(await reviewed("Pays to")).toBe("the marketplace escrow, as the deposit for forsale");
      expect(await reviewed("Amount")).toBe(xlm(price));
      expect(await reviewed("Memo")).toBe("your intent's memo, which ties the payment to your intent");
      expect(await reviewed("Signed by")).toBe(buyer);
      // The raw values stay one click away, under Details.
      const payDetails = payReview.locator("details");
      await payDetails.locator("summary").click();
      expect(await payDetails.innerText()).toContain(listings.escrow);
      expect(await payDetails.innerText()).toContain(minted.intent?.memoHash ?? "?");
      await payDetails.locator("summary").click();
      await check("review of the deposit");
      await click(payReview.getByRole("button", { name: "Sign with Demo wallet (buyer)" }));
      await page.getByRole("status").filter({ hasText: "Done: Pay the deposit for forsale." }).waitFor(step);
      // At once, before the escrow has judged it: the deposit is not offered a second time.
      expect(await page.getByRole("button", { name: "Pay the deposit", disabled: false }).count()).toBe(0);

      // The escrow watcher funds the deposit; accepting is then the buyer's turn — no Close to press first.
      await waitSteps(page, BUY, [
        "request:done",
        "proposal:done",
        "deposit:done",
        "accept:now",
        "payout:next",
      ]);
      expect(await page.getByRole("button", { name: "Close" }).count()).toBe(0);
      await page.getByRole("button", { name: "Accept forsale", disabled: false }).waitFor(step);
      expect(await pay.count()).toBe(0);
      await check("deposit held");
      await waitSteps(sellerPage, "Steps to sell", [
        "list:done",
        "bond:done",
        "buyer:done",
        "offer:done",
        "deposit:done",
        "accept:waiting",
      ]);
      await browser.check("seller's panel, deposit held", { page: sellerPage });
      await click(accept);
      const acceptReview = page.getByRole("region", { name: "Review: Accept forsale" });
      await acceptReview.waitFor(step);
      const acceptTerm = (t: string) =>
        acceptReview
          .locator("dt", { hasText: new RegExp(`^${t}$`) })
          .first()
          .locator("+ dd")
          .innerText();
      expect(await acceptTerm("Contract")).toBe("the namespace registry");
      expect(await acceptTerm("Signed by")).toBe(buyer);
      const acceptDetails = acceptReview.locator("details");
      await acceptDetails.locator("summary").click();
      expect(await acceptDetails.innerText()).toContain(registryId);
      expect(await acceptDetails.innerText()).toContain("accept_transfer");
      await acceptDetails.locator("summary").click();
      await check("review of the acceptance");
      await click(acceptReview.getByRole("button", { name: "Sign with Demo wallet (buyer)" }));
      await page.getByRole("status").filter({ hasText: "Done: Accept forsale." }).waitFor(step);
      // The page names the buyer as the owner at once, whatever the mirror has indexed yet.
      expect(await page.locator("h2:text-is('Owner') + a").getAttribute("href")).toBe(`/account/${buyer}`);
      // At most 6 clicks after signing in.
      expect(clicks).toBe(5);

      // The escrow settles the sale and pays the seller: the stepper becomes a receipt; no Pay, no Accept.
      const receipt = page.getByRole("status").filter({ hasText: "forsale is yours" });
      await receipt.waitFor(step);
      const term = (t: string) => receipt.locator("dt", { hasText: new RegExp(`^${t}$`) }).locator("+ dd");
      expect(await term("You paid").innerText()).toMatch(
        new RegExp(`^${xlm(price)}, in transaction [0-9a-f]{64}$`),
      );
      await term("The seller received")
        .filter({ hasText: xlm(price - fee) })
        .waitFor(step);
      expect(await term("The seller received").getByRole("link").getAttribute("href")).toMatch(
        /^\/tx\/[0-9a-f]{64}$/,
      );
      expect(await term("Market fee").innerText()).toBe(`${xlm(fee)} (2.5 % market fee)`);
      expect(await pay.count()).toBe(0);
      expect(await accept.count()).toBe(0);
      expect(await page.getByRole("list", { name: BUY }).count()).toBe(0);
      // Nothing of the deposit came back to the buyer.
      expect(await page.getByRole("region", { name: "Sent back to you" }).count()).toBe(0);
      await check("after the sale");
      // The seller's panel: sold, paid, with the payment's transaction.
      const sold = sellerPage.getByRole("status").filter({ hasText: "Sold to" });
      await sold.filter({ hasText: `you received ${xlm(price - fee)}` }).waitFor(step);
      expect(await sold.getByRole("link", { name: buyer }).getAttribute("href")).toBe(`/account/${buyer}`);
      await browser.check("seller's panel after the sale", { page: sellerPage });

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
      const after = await buyerState(listing.id);
      expect(after.listing.state).toBe("sold");
      expect(after.deposit.state).toBe("paid_out");
      expect(after.settlement.state).toBe("sold_to_you");
      const payout = after.settlement.sale?.sellerPayout;
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

  it("serves every page, the Demo wallet's sign-in and /docs/ under the security headers with no violation; no other origin frames a page", async () => {
    // The headers themselves, as `namereg dev` sends them: the app's page connects to the devnet's RPC, its public
    // RPC, and nowhere else; the reference's policy differs only by its inline script's hash and styles.
    const csp = async (path: string) => {
      const answer = await fetch(`${base}${path}`, { headers: { accept: "text/html" } });
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(answer.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(answer.headers.get("strict-transport-security"), path).toBeNull();
      return (answer.headers.get("content-security-policy") ?? "").split(";");
    };
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await (await fetch(`${base}/`)).text())?.[1] ?? "";
    for (const path of ["/", "/namespace/acme", script, "/no-such-page"]) {
      const directives = await csp(path);
      expect(directives, path).toContain(`connect-src 'self' ${new URL(rpcUrl).origin}`);
      expect(directives, path).toContain("script-src 'self'");
      expect(directives, path).toContain("style-src 'self'");
      expect(directives, path).toContain("frame-ancestors 'none'");
    }
    expect(await csp("/docs/")).toContain("style-src 'self' 'unsafe-inline'");
    const v1 = await fetch(`${base}/v1/stats`);
    expect(v1.headers.get("content-security-policy")).toBeNull();
    expect(v1.headers.get("access-control-allow-origin")).toBe("*");

    // In Chromium: Chromium logs every CSP violation as an error, which the fixture collects. A 4xx the page
    // explains (no reverse name for an account, …) is logged as a failed load: those are the pages test's to judge.
    const violations = () => browser.errors.filter((e) => !e.includes("Failed to load resource"));
    browser.reset();
    const tab = await browser.newPage();
    for (const [path, shown] of [
      ["/", "#status-summary"],
      ["/name/alice.acme", "h1"],
      ["/namespace/acme", "h1"],
      [`/account/${buyer}`, "h1"],
      ["/claims", "h1"],
      ["/market", "h1"],
      ["/market/forsale", "h1"],
    ] as const) {
      await tab.goto(`${base}${path}`);
      await tab.locator(shown).first().waitFor();
      await tab.waitForLoadState("networkidle");
      expect(violations(), path).toEqual([]);
    }
    // The Demo wallet: its accounts fetched, the SDK's chunk loaded, a challenge signed, the session kept; then the
    // wallet picker with the kit's modules loaded and asked whether they are installed.
    await signInAs(tab, "alice");
    await tab.getByRole("button", { name: "Sign out" }).click();
    await tab.getByRole("button", { name: "Sign in", exact: true }).click();
    await tab.getByRole("region", { name: "Browser wallets" }).getByRole("list").waitFor();
    expect(violations()).toEqual([]);

    // The API reference renders (its script, its styles, the document it fetches) with no violation either.
    await tab.goto(`${base}/docs/`);
    await tab.getByRole("heading", { name: "namereg", level: 1 }).waitFor();
    await tab.waitForLoadState("networkidle");
    expect(violations()).toEqual([]);
    expect(browser.foreign).toEqual([]);

    // Another origin (a page on another port) frames a page of the console: the browser refuses to show it.
    const framing = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(`<!doctype html><title>framer</title><iframe src="${base}/namespace/acme"></iframe>`);
    });
    await new Promise<void>((resolve) => framing.listen(0, "127.0.0.1", resolve));
    try {
      const other = `http://127.0.0.1:${(framing.address() as AddressInfo).port}/`;
      await tab.goto(other);
      const refused = () => browser.errors.filter((e) => e.includes("frame-ancestors 'none'"));
      await expect.poll(refused).toHaveLength(1);
      const frame = tab.frames().find((f) => f !== tab.mainFrame());
      // The frame holds Chromium's error page, not the app: nothing of it to click on.
      expect(await frame?.locator("#app").count()).toBe(0);
    } finally {
      framing.close();
      await tab.close();
    }
  }, 120_000);
});
