// The seller's marketplace console in a real browser: Debian's Chromium driven by playwright-core against an app
// wired as `namereg dev` wires it (the demo devnet, the indexer and the escrow watcher running on their own loops, the
// marketplace escrowed by the demo `escrow` account, the Demo wallet). Signed in as plain, the owner of namespace
// plain, which is not listed, the page lists plain for sale, pays the bond, sees the listing turn active when the
// escrow sees the bond, sees a buyer who minted an intent through the public API, proposes the transfer to them,
// cancels the proposal and cancels the listing; each step is checked through the API and on the chain (the proposal on
// the registry, the bond on plain's balance). axe-core finds no serious or critical violation, no page logs an error.
import { demoKeypair, Wallet } from "@namereg/devnet";
import { namespaceNode, RegistryFns, xlmToStroops } from "@namereg/protocol";
import { runEscrowWatcherProcess } from "@namereg/server";
import {
  type DemoApp,
  type IndexedDemoChain,
  listenDemoApp,
  startDemoChain,
  stopDemoChain,
} from "@namereg/server/testing";
import { rpc } from "@stellar/stellar-sdk";
import { pino } from "pino";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./fixtures/browser.ts";
import { termOf } from "./fixtures/review.ts";
import { signInAs } from "./fixtures/sign-in.ts";

/** Billing is off in this app: the owner console's billing read is refused (409), which it says in words. */
const REFUSED = ["/console/billing"];
/**
 * The escrow's answers the page waits for (the bond seen, a cancel settled and its bond paid back) took at most 4 s
 * here on a loaded two-core machine: an indexer pass, a watcher poll (500 ms) and a payout's ledger (250 ms), then
 * the panel's next read (2 s). Eight times that holds on a machine twice as slow under the same load.
 */
const ESCROW_BOUND_MS = 40_000;
/** A transaction reviewed, signed and included: at most 6 s measured; the flow itself gives up after two minutes. */
const TX_BOUND_MS = 60_000;

describe("the seller's marketplace console in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let dev: DemoApp;
  let session: BrowserSession;
  let page: Page;
  let base: string;
  let wallet: Wallet;
  let server: rpc.Server;
  const stop = new AbortController();
  let loops: Promise<unknown>[] = [];
  /** Requests the service refuses on purpose (Chromium logs each as a failed load). */
  const refusals = [...REFUSED];
  const plain = demoKeypair("plain").publicKey();
  const bob = demoKeypair("bob").publicKey();
  const escrow = demoKeypair("escrow");
  /** How long each wait on the escrow took, for the record (not asserted: docs/... tests assert no timings). */
  const waited: Record<string, number> = {};

  beforeAll(async () => {
    session = await openBrowser({ prefix: "seller-" });
    page = session.page;
    // The indexer's own loop, as under `namereg dev`: a pass, then a wait for the next ledger.
    chain = await startDemoChain(250);
    const { devnet } = chain;
    wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    server = new rpc.Server(devnet.rpcUrl, { allowHttp: true });
    dev = await listenDemoApp(chain, {
      // The demo marketplace of `namereg dev` (runtime/dev-features.ts): the demo escrow account, 250 bps.
      MARKET_ENABLED: "true",
      ESCROW_ACCOUNT: escrow.publicKey(),
      ESCROW_SECRET: escrow.secret(),
      MARKET_FEE_BPS: "250",
      ESCROW_START_LEDGER: String(devnet.chain.latest.sequence),
      ESCROW_POLL_MS: "500",
    });
    base = dev.base;
    const logger = pino({ level: "silent" });
    loops = [
      chain.indexer.run(stop.signal),
      runEscrowWatcherProcess({ config: dev.config, database: chain.database, logger, signal: stop.signal }),
    ];
  }, 180_000);

  afterAll(async () => {
    stop.abort();
    await Promise.allSettled(loops);
    await session?.close();
    await dev?.app.close();
    await stopDemoChain(chain);
    console.info(`web-seller waits (ms): ${JSON.stringify(waited)}`);
  });

  /** axe-core at phone width and at 1280 px, nothing wider than the screen, nothing logged but the refusals. */
  const check = (name: string) => session.check(name, { refusals });

  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active === null ? "" : (active as HTMLElement).innerText.trim();
    });
  const lines = (text: string) => text.split("\n").filter((line) => line.trim() !== "");
  const short = (account: string) => `${account.slice(0, 4)}…${account.slice(-4)}`;

  /** Waits for what the escrow does on its own, recording how long it took. */
  async function escrowAnswer(what: string, wait: (timeout: number) => Promise<void>): Promise<void> {
    const started = performance.now();
    await wait(ESCROW_BOUND_MS);
    waited[what] = Math.round(performance.now() - started);
  }

  async function balance(account: string): Promise<bigint> {
    const entry = (await server.getAccountEntry(account)) as unknown as { balance: { toString(): string } };
    return BigInt(entry.balance.toString());
  }

  it("as plain lists plain for sale, pays the bond, proposes it to a buyer, withdraws, and cancels", async () => {
    const node = namespaceNode("plain");
    const registry = chain.devnet.contracts.registry;
    await page.goto(`${base}/namespace/plain`);
    await signInAs(page, "plain");
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem("namereg.session") ?? "{}") as { token?: string }).token,
    );
    const headers = { authorization: `Bearer ${token}`, "x-service-namespace": "plain" };
    const seller = async () => {
      const answer = await fetch(`${base}/console/market/listings`, { headers });
      expect(answer.status).toBe(200);
      return (await answer.json()) as {
        listings: {
          id: string;
          state: string;
          bond: { to: string; amountXlm: string; memoHash: string; posted: boolean };
          intents: { buyer: string; funded: boolean }[];
          proposal: { to: string; expires: string } | null;
        }[];
        settled: { id: string; state: string; bond: { payouts: Record<string, unknown>[] } }[];
      };
    };

    const sale = page.getByRole("region", { name: "Sell this namespace" });
    await sale.getByText("plain is not listed for sale.").waitFor();
    await sale.getByLabel("Price in XLM").fill("20");
    expect(await sale.locator("#sale-figures").innerText()).toBe(
      "At 20 XLM the marketplace keeps 2.5 % (0.5 XLM): you receive 19.5 XLM. Before the listing opens you pay a bond of 10 XLM into the escrow; it comes back after a sale or a cancel.",
    );
    await check("a new listing's price");
    await sale.getByRole("button", { name: "List plain for sale" }).click();
    const term = termOf(sale);
    const stepStatus = (id: string) => sale.locator(`[data-step="${id}"]`).getAttribute("data-status");
    await sale.getByText("Waiting for the bond").waitFor();
    const [listed] = (await seller()).listings;
    expect(listed).toMatchObject({
      state: "pending_bond",
      bond: { to: escrow.publicKey(), amountXlm: "10.0000000", posted: false },
    });
    const id = listed?.id ?? "";
    await sale.getByText("List plain at 20 XLM").waitFor();
    expect(await stepStatus("bond")).toBe("now");
    expect(await term("Bond memo (hash)")).toBe(listed?.bond.memoHash);

    // The bond: a payment reviewed in words, held to the escrow, the amount and the listing's memo.
    const before = await balance(plain);
    await sale.getByRole("button", { name: "Pay the bond of 10 XLM" }).click();
    const review = page.getByRole("region", { name: "Review: Pay the bond for listing plain" });
    await review.waitFor({ timeout: TX_BOUND_MS });
    // The focus moves in an effect after the render: asked until it has (a single read can come first).
    await expect.poll(focused).toBe("Review: Pay the bond for listing plain");
    const reviewed = termOf(review);
    expect(lines(await reviewed("What it does"))[0]).toBe(
      "Pay 10 XLM to the marketplace escrow, as the bond of your listing of plain.",
    );
    expect(await reviewed("Pays to")).toBe("the marketplace escrow, as the bond of your listing of plain");
    expect(await reviewed("Destination account")).toBe(escrow.publicKey());
    expect(await reviewed("Amount")).toBe("10 XLM");
    expect(await reviewed("Memo")).toBe("the listing's bond memo, which ties the payment to this listing");
    expect(await reviewed("Memo (hash)")).toBe(listed?.bond.memoHash);
    expect(await reviewed("Signed by")).toBe(plain);
    await check("review of the bond");
    await review.getByRole("button", { name: "Sign with Demo wallet (plain)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Pay the bond for listing plain." })
      .waitFor({ timeout: TX_BOUND_MS });
    // At once, whether or not the escrow has seen it yet: no second bond is asked for.
    expect(await sale.getByRole("button", { name: "Pay the bond of 10 XLM" }).count()).toBe(0);
    const paid = before - (await balance(plain));
    // 10 XLM and the fee (at most 1 XLM: verifyPreparedPayment's bound).
    expect(paid > xlmToStroops("10") && paid < xlmToStroops("11")).toBe(true);

    // The escrow sees the bond on its own and the listing turns active; the page follows.
    await escrowAnswer("bond seen", (timeout) =>
      sale.getByText("Active: open to buyers.").waitFor({ timeout }),
    );
    expect((await seller()).listings[0]).toMatchObject({ id, state: "active", bond: { posted: true } });
    const market = (await (await fetch(`${base}/v1/market/listings`)).json()) as {
      listings: { id: string; namespace: string }[];
    };
    expect(market.listings.find((l) => l.id === id)?.namespace).toBe("plain");
    expect(await stepStatus("bond")).toBe("done");
    expect(await stepStatus("buyer")).toBe("waiting");

    // A buyer mints an intent through the public API; the seller sees them, with their deposit not paid.
    const intent = await fetch(`${base}/v1/market/listings/${id}/intent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: bob }),
    });
    expect(intent.status).toBe(200);
    await sale.getByRole("button", { name: "Check for new buyers" }).click();
    const buyers = sale.locator("table", {
      has: page.locator("caption", { hasText: "Buyers who asked to buy" }),
    });
    const row = buyers.locator("tr", { hasText: bob });
    await row.waitFor();
    expect(await row.getByRole("link", { name: bob }).getAttribute("href")).toBe(`/account/${bob}`);
    expect(await row.locator("td").nth(2).innerText()).toBe("not paid");
    expect((await seller()).listings[0]?.intents).toEqual([
      expect.objectContaining({ buyer: bob, funded: false }),
    ]);
    await check("an active listing with a buyer");

    // The proposal to bob: a registry call reviewed in words, then live on the registry.
    await row.getByRole("button", { name: `Offer plain to ${short(bob)}` }).click();
    const proposing = page.getByRole("region", { name: `Review: Offer plain to ${short(bob)}` });
    await proposing.waitFor({ timeout: TX_BOUND_MS });
    const proposed = termOf(proposing);
    const [offer, then] = lines(await proposed("What it does"));
    expect(offer).toMatch(new RegExp(`^You offer namespace plain to ${bob}, until .+\\.$`));
    expect(then).toContain("the escrow pays you the price less the fee, and returns your bond");
    expect(await proposed("Contract")).toBe("the namespace registry");
    expect(await termOf(proposing)("Contract id")).toBe(registry);
    expect(await termOf(proposing)("Function")).toBe("propose_transfer");
    await check("review of a proposal");
    await proposing.getByRole("button", { name: "Sign with Demo wallet (plain)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Done: Offer plain to ${short(bob)}.` })
      .waitFor({ timeout: TX_BOUND_MS });
    const onChain = await wallet.read(plain, registry, RegistryFns.transfer_proposal, { node });
    expect(onChain?.to).toBe(bob);
    const until = Number(onChain?.expires) * 1000;
    // A day of the ledger's clock, which the devnet keeps near the wall clock.
    expect(Math.abs(until - Date.now() - 86_400_000)).toBeLessThan(3_600_000);
    expect((await seller()).listings[0]?.proposal).toEqual({
      to: bob,
      expires: String(onChain?.expires),
      expiresAt: new Date(until).toISOString(),
    });
    await row.getByText("offered, until").waitFor();
    expect(await stepStatus("offer")).toBe("done");
    expect(await stepStatus("deposit")).toBe("waiting");

    // Withdrawn again: cancel_transfer on the registry, and no proposal left.
    await sale.getByRole("button", { name: "Withdraw the offer" }).click();
    const withdrawing = page.getByRole("region", { name: "Review: Withdraw the offer of plain" });
    await withdrawing.waitFor({ timeout: TX_BOUND_MS });
    expect(
      lines(await withdrawing.locator("dt", { hasText: "What it does" }).locator("+ dd").innerText()),
    ).toEqual([
      "You withdraw your offer of namespace plain: no one can accept it any more.",
      "If the buyer's deposit is already in the escrow, it is refunded to them and your bond is paid to them.",
    ]);
    expect(await termOf(withdrawing)("Function")).toBe("cancel_transfer");
    await withdrawing.getByRole("button", { name: "Sign with Demo wallet (plain)" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: "Done: Withdraw the offer of plain." })
      .waitFor({ timeout: TX_BOUND_MS });
    expect(await wallet.read(plain, registry, RegistryFns.transfer_proposal, { node })).toBeNull();
    expect((await seller()).listings[0]?.proposal).toBeNull();
    await row.getByRole("button", { name: `Offer plain to ${short(bob)}` }).waitFor();

    // An offer made and withdrawn elsewhere (the owner's other wallet): the open panel follows the chain on its own,
    // without a reload or a button pressed — the offer appears, then the buyer can be offered the namespace again.
    const plainKey = demoKeypair("plain");
    const expires = BigInt(Math.floor(Date.now() / 1000) + 3600);
    await wallet.invoke(plainKey, registry, RegistryFns.propose_transfer, { node, to: bob, expires });
    await row.getByText("offered, until").waitFor({ timeout: TX_BOUND_MS });
    expect(await stepStatus("offer")).toBe("done");
    await check("an offer made elsewhere");
    await wallet.invoke(plainKey, registry, RegistryFns.cancel_transfer, { node });
    await row.getByRole("button", { name: `Offer plain to ${short(bob)}` }).waitFor({ timeout: TX_BOUND_MS });
    expect(await stepStatus("offer")).toBe("now");
    expect(await sale.getByRole("button", { name: "Withdraw the offer" }).count()).toBe(0);

    // The cancel: its consequence in words first, the focus on the answer; then the escrow returns the bond.
    await sale.getByRole("button", { name: "Cancel the listing" }).click();
    const confirm = sale.getByRole("group", { name: "Cancel the listing of plain?" });
    expect(lines(await confirm.innerText()).slice(1, 3)).toEqual([
      "The listing closes to new buyers.",
      "No buyer's deposit is in the escrow: your bond of 10 XLM comes back to you once the escrow settles the cancel.",
    ]);
    await expect.poll(focused).toBe("Yes, cancel the listing");
    await check("the cancel's confirmation");
    const beforeCancel = await balance(plain);
    await page.keyboard.press("Enter");
    const earlier = sale.locator("li", { hasText: "Cancelled at 20 XLM" });
    // The transaction's link appears once the escrow has paid the bond back (before, it says it is sending it).
    await escrowAnswer("cancel settled, bond returned", (timeout) =>
      earlier.getByRole("link", { name: /^[0-9a-f]{64}$/ }).waitFor({ timeout }),
    );
    const after = await seller();
    expect(after.listings).toEqual([]);
    expect(after.settled[0]).toMatchObject({
      id,
      state: "closed",
      bond: {
        payouts: [
          {
            purpose: "bond_return",
            to: plain,
            amountXlm: "10.0000000",
            state: "paid",
            txHash: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
        ],
      },
    });
    const returned = after.settled[0]?.bond.payouts[0]?.txHash as string;
    expect(lines(await earlier.innerText())).toEqual([
      // The time as a date and time in the reader's locale, never the ISO instant.
      expect.stringMatching(/^Cancelled at 20 XLM, [^T]+\d:\d\d( [AP]M)?\. /),
    ]);
    expect(await earlier.innerText()).toContain(
      `Bond of 10 XLM returned to ${plain} in transaction ${returned}.`,
    );
    expect(await earlier.getByRole("link", { name: returned }).getAttribute("href")).toBe(`/tx/${returned}`);
    expect(await earlier.getByRole("link", { name: plain }).getAttribute("href")).toBe(`/account/${plain}`);
    // On chain: the whole bond back on plain's balance (the escrow pays the fee of its payment).
    expect((await balance(plain)) - beforeCancel).toBe(xlmToStroops("10"));
    await sale.getByText("plain is not listed for sale.").waitFor();
    await check("after the cancel");
  }, 300_000);
});
