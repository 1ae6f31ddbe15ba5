// The web app in a real browser: Debian's Chromium driven by playwright-core, against the demo chain indexed into
// a database, with the marketplace on and one namespace listed (what `namereg dev` shows). Each page is opened at
// phone width (390 px) and at 1280 px, checked for what a person sees, checked by axe-core (no serious or critical
// violation), and screenshotted into test-artifacts/screenshots/ (kept out of git). No page may log an error.
import type { AddressInfo } from "node:net";
import { DEMO_ETHEREUM, DEMO_TEXT, demoKeypair } from "@namereg/devnet";
import { nameNode, ResolverFns } from "@namereg/protocol";
import { type App, buildApp, ChainClient, RpcClient } from "@namereg/server";
import { type MarketHarness, startMarketHarness } from "@namereg/server/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./fixtures/browser.ts";

/**
 * The status page reads itself again every 5 s (pages/status.tsx) and a read may wait up to the RPC's 3 s deadline:
 * a state change shows within about 8 s, so 20 s holds on a machine twice as slow.
 */
const STATUS_BOUND_MS = 20_000;

describe("the web page in Chromium", () => {
  let h: MarketHarness;
  let app: App;
  let session: BrowserSession;
  let page: Page;
  let base: string;
  let listed: string;

  beforeAll(async () => {
    h = await startMarketHarness("pglite");
    const seller = await h.funded();
    listed = await h.namespaceFor(seller);
    await h.list(seller, listed, "100");
    await h.sync();
    const rpc = new RpcClient(h.devnet.rpcUrl, { retries: 0 });
    // The harness's own app has no head source; this one is wired like `namereg dev` (RPC head, live reads).
    app = await buildApp({
      config: h.config,
      db: h.database,
      redis: null,
      chain: { head: () => rpc.getLatestLedger() },
      chainClient: new ChainClient(h.devnet.rpcUrl, h.devnet.networkPassphrase),
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // The page must not reach beyond the API.
    session = await openBrowser({ allow: (url) => url.href.startsWith(base) });
    page = session.page;
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    await app?.close();
    await h?.close();
  });

  beforeEach(() => {
    session.reset();
  });

  const shot = (name: string) => session.shot(name);

  /**
   * The page as it stands, at phone width and at 1280 px: axe-core finds no serious or critical violation, nothing
   * is wider than the screen, no error was logged (a refused read the page explains is allowed when its URL is named
   * in `refusals`: Chromium logs every 4xx and 5xx answer), and a screenshot of each width is kept.
   */
  const check = (name: string, refusals: readonly string[] = []) => session.check(name, { refusals });
  const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

  it("turns from a component behind to all operational, shows each new ledger and keeps its answer when a read fails, without a reload", async () => {
    // The indexer falls behind: ledgers close that it has not read (more than 10 behind is lagging, docs/api.md
    // "GET /v1/status"). Nothing runs the indexer in this file but `h.sync()`, so the page opens on that state.
    for (let n = 0; n < 12; n++) h.devnet.closeLedger();
    await page.goto(`${base}/`);
    await page.locator("#status-summary").waitFor();
    expect(await text("#status-summary")).toMatch(/^Some components need attention · ledger \d+$/);
    const state = (component: string) =>
      page.locator("tr", { hasText: component }).locator(".state").innerText();
    expect(await state("Indexer")).toBe("Behind the chain");
    await page
      .locator("[data-live]")
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: STATUS_BOUND_MS });
    // Set on the page's window: still there at the end means the page was never reloaded.
    await page.evaluate(() => Object.assign(window, { statusMark: "kept" }));

    // The indexer catches up: the open page says so by itself.
    await h.sync();
    const head = h.devnet.chain.latest.sequence;
    const summary = page.locator("#status-summary");
    await summary
      .filter({ hasText: new RegExp(`^All systems operational · ledger ${head}$`) })
      .waitFor({ timeout: STATUS_BOUND_MS });
    const processed = page.locator("dt", { hasText: "Processed ledger" }).locator("+ dd");
    expect(await processed.innerText()).toBe(String(head));
    // States and details in words, not the API's field names.
    for (const component of ["Database", "Connection to the Stellar network", "Indexer", "Escrow watcher"])
      expect(await state(component)).toBe("Operational");
    // Components by what they are: the API's "the service RPC" is not shown as such.
    expect(await page.locator("td", { hasText: /service RPC/i }).count()).toBe(0);
    // A component with no details says so, rather than leaving an empty "Details:" (a stacked card on a phone).
    expect(await page.locator("tr", { hasText: "Database" }).locator("td").nth(2).innerText()).toBe("—");
    const indexer = await page.locator("tr", { hasText: "Indexer" }).locator("td").nth(2).innerText();
    expect(indexer).toMatch(
      new RegExp(`^at ledger ${head}; keeping up with the chain; last progress .+; every event applied$`),
    );
    // Not Intl's bare "now" ("last progress now"): within seconds it is "just now".
    expect(indexer).not.toMatch(/progress now/);
    expect(await page.locator("dt", { hasText: "Processed at" }).locator("+ dd").innerText()).not.toMatch(
      /\(now\)/,
    );
    const escrow = await page.locator("tr", { hasText: "Escrow watcher" }).locator("td").nth(2).innerText();
    expect(escrow).toMatch(/^last poll (just now|\d+ seconds? ago); nothing parked$/);
    expect(await text("#coverage-title")).toBe("Coverage");
    expect(await page.locator("dt", { hasText: "Complete" }).locator("+ dd").innerText()).toBe("yes");
    await check("status");

    // A new ledger, indexed: shown on the open page.
    h.devnet.closeLedger();
    await h.sync();
    await summary
      .filter({ hasText: new RegExp(`^All systems operational · ledger ${head + 1}$`) })
      .waitFor({ timeout: STATUS_BOUND_MS });
    await processed.filter({ hasText: new RegExp(`^${head + 1}$`) }).waitFor({ timeout: STATUS_BOUND_MS });

    // The service cannot be reached for a moment: the last answer stays, said to be not refreshed, and the summary
    // says it in the past, not "All systems operational" under "The service could not be reached".
    await page.route("**/v1/status", (route) => route.abort("connectionrefused"));
    const stale = page.locator("[data-stale]");
    await stale.waitFor({ timeout: STATUS_BOUND_MS });
    expect(await stale.locator("p").innerText()).toMatch(
      /^Could not be refreshed: The service could not be reached\. Shown as read at .+; the page tries again by itself\.$/,
    );
    expect(await text("#status-summary")).toBe(
      `All systems were operational when last read · ledger ${head + 1}`,
    );
    // A proxy's own error page while the service is down: in words, not the client's "unknown_error" nor a
    // "refused" request; what came is in the note's Details, which its sentences may point to.
    await page.unroute("**/v1/status");
    await page.route("**/v1/status", (route) =>
      route.fulfill({ status: 502, contentType: "text/html", body: "<h1>502 Bad Gateway</h1>" }),
    );
    const proxy = stale.filter({ hasText: "not answering properly" });
    await proxy.waitFor({ timeout: STATUS_BOUND_MS });
    expect(await proxy.locator("p").innerText()).toMatch(
      /^Could not be refreshed: The service is not answering properly right now\. Shown as read at .+; the page tries again by itself\.$/,
    );
    await proxy.getByText("Details").click();
    expect(await proxy.locator(".details-body").innerText()).toBe("HTTP 502: <h1>502 Bad Gateway</h1>");
    await session.check("status not refreshed", { refusals: ["/v1/status"] });
    await page.unroute("**/v1/status");
    await stale.waitFor({ state: "detached", timeout: STATUS_BOUND_MS });
    expect(await page.evaluate(() => (window as unknown as { statusMark?: string }).statusMark)).toBe("kept");
    // The refused reads were logged by Chromium, as this test meant.
    session.reset();
  });

  it("says Reconnecting… when the change stream drops while the network stays up, and Live once it is back", async () => {
    await page.goto(`${base}/`);
    const indicator = page.locator("[data-live]");
    await indicator.filter({ hasText: /^Live$/ }).waitFor({ timeout: STATUS_BOUND_MS });
    // The service drops every connection (a restart, a proxy's idle cut) and answers no stream for a while; the
    // browser stays online (no `offline` event: the module learns it from the stream alone).
    await page.route("**/v1/stream**", (route) =>
      route.fulfill({ status: 503, contentType: "text/plain", body: "stream unavailable" }),
    );
    app.server.closeAllConnections();
    await indicator.filter({ hasText: "Reconnecting…" }).waitFor({ timeout: STATUS_BOUND_MS });
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    // Still not live a few retries later: the indicator does not claim Live while nothing is heard.
    await page.waitForTimeout(5_000);
    expect(await indicator.innerText()).toMatch(/^Reconnecting…/);
    // The status read itself still gets through: the page says no stale note, only that it may be behind.
    expect(await page.locator("[data-stale]").count()).toBe(0);
    await page.unroute("**/v1/stream**");
    await indicator.filter({ hasText: /^Live$/ }).waitFor({ timeout: STATUS_BOUND_MS });
    // The refused stream was logged by Chromium, as this test meant.
    session.reset();
  });

  it("says Reconnecting… when the stream never comes up, and reads the page again when the person comes back to it", async () => {
    await page.route("**/v1/stream**", (route) =>
      route.fulfill({ status: 503, contentType: "text/plain", body: "stream unavailable" }),
    );
    try {
      await page.goto(`${base}/namespace/acme`);
      await page.locator("#overview dl").first().waitFor();
      // Not "Connecting…" for ever: the browser gave up on an answer that is no stream, and the page retries it.
      await page
        .locator("[data-live]")
        .filter({ hasText: "Reconnecting…" })
        .waitFor({ timeout: STATUS_BOUND_MS });
      // Without its stream, the page reads what it shows again when the person comes back to it.
      const reads: string[] = [];
      const heard = (request: { url(): string }) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith("/v1/namespaces/acme")) reads.push(path);
      };
      page.on("request", heard);
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await expect.poll(() => reads.length, { timeout: STATUS_BOUND_MS }).toBeGreaterThan(0);
      page.off("request", heard);
    } finally {
      await page.unroute("**/v1/stream**");
    }
    // The refused streams were logged by Chromium, as this test meant.
    session.reset();
  });

  it("shows lookup results while typing, and opens the name page from one", async () => {
    await page.goto(`${base}/`);
    await page.getByLabel("Name or namespace").pressSequentially("ali", { delay: 30 });
    const result = page
      .getByRole("list", { name: "Lookup results" })
      .getByRole("link", { name: "alice.acme" });
    await result.waitFor();
    await shot("lookup");
    await result.click();
    await page.waitForURL(/\/name\/alice\.acme$/);
    expect(await text("h1")).toBe("alice.acme");
    // The choice closes the lookup and clears it: the page that opened is the answer.
    expect(await page.getByLabel("Name or namespace").inputValue()).toBe("");
    expect(await page.getByRole("list", { name: "Lookup results" }).count()).toBe(0);
    // Enter too.
    await page.getByLabel("Name or namespace").fill("bob.acme");
    await page.getByLabel("Name or namespace").press("Enter");
    await page.waitForURL(/\/name\/bob\.acme$/);
    expect(await page.getByLabel("Name or namespace").inputValue()).toBe("");
    expect(await page.getByRole("list", { name: "Lookup results" }).count()).toBe(0);
  });

  it("says in words that the lookup searches at most 64 characters, and does not ask the API for more", async () => {
    await page.goto(`${base}/`);
    const box = page.getByLabel("Name or namespace");
    expect(await box.getAttribute("maxlength")).toBe("64");
    // A value set by script (or pasted past maxlength) reaches the page whole: it is refused in words.
    await box.evaluate((el, value) => {
      (el as HTMLInputElement).value = value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, "a".repeat(65));
    await page.getByText("Search for at most 64 characters.").waitFor();
    expect(await page.locator('[data-code="invalid_request"]').count()).toBe(0);
  });

  it("opens the namespace page from a namespace result, and from `acme` typed alone", async () => {
    await page.goto(`${base}/`);
    await page.getByLabel("Name or namespace").pressSequentially("acm", { delay: 30 });
    await page
      .getByRole("list", { name: "Lookup results" })
      .getByRole("link", { name: "acme", exact: true })
      .click();
    await page.waitForURL(/\/namespace\/acme$/);
    expect(await text("h1")).toBe("acme");
    await page.goto(`${base}/`);
    await page.getByLabel("Name or namespace").fill("acme");
    await page.getByLabel("Name or namespace").press("Enter");
    await page.waitForURL(/\/namespace\/acme$/);
    await page.locator("dt", { hasText: "Owner" }).waitFor();
    expect(await page.locator("dt", { hasText: "Names issued" }).locator("+ dd").innerText()).toBe("3");
    await check("namespace-acme-lookup");
  });

  it("shows a namespace's owner, policies in words, its names (each a link, expired ones said) and its listing", async () => {
    await page.goto(`${base}/namespace/acme`);
    const owner = page.locator("dt", { hasText: "Owner" }).locator("+ dd").getByRole("link");
    await owner.waitFor();
    expect(await owner.getAttribute("href")).toMatch(/^\/account\/G[A-Z2-7]{55}$/);
    const dd = (term: string) => page.locator("dt", { hasText: term }).locator("+ dd").innerText();
    expect(await dd("Subnames")).toBe("Holders may create subnames");
    expect(await dd("Networks")).toBe("Names may keep addresses on ethereum, bitcoin");
    expect(await dd("Routing")).toBe("Locked: names without expiry are permanent");
    const names = page.locator("table", { has: page.locator("caption", { hasText: "Names issued" }) });
    await names.waitFor();
    const rows = names.locator("tbody tr");
    expect(await rows.locator("td:first-child").allInnerTexts()).toEqual([
      "alice.acme",
      "bob.acme",
      "old.acme",
    ]);
    const alice = rows.filter({ hasText: "alice.acme" });
    expect(await alice.getByRole("link", { name: "alice.acme" }).getAttribute("href")).toBe(
      "/name/alice.acme",
    );
    expect(await alice.locator("td").nth(3).innerText()).toBe("1 subname");
    expect(await alice.locator("td").nth(2).innerText()).toBe("never");
    // Chain times read as dates in the reader's locale; the instant itself stays in <time datetime> and its title.
    const expiredAt = rows.filter({ hasText: "old.acme" }).locator("td").nth(2);
    expect(await expiredAt.innerText()).toMatch(/^expired \S/);
    expect(await expiredAt.innerText()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const instant = await expiredAt.locator("time").getAttribute("datetime");
    expect(instant).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await expiredAt.locator("time").getAttribute("title")).toBe(instant);
    // The registrar and resolver link to their contract's events, under Details: contract ids are machine values.
    const contracts = page.locator("#overview details", { hasText: "the namespace's contracts" });
    expect(
      await page
        .locator("#overview")
        .getByRole("link", { name: /^C[A-Z2-7]{55}$/ })
        .first()
        .isVisible(),
    ).toBe(false);
    await contracts.locator("summary").click();
    for (const term of ["Registrar", "Resolver"])
      expect(
        await page.locator("dt", { hasText: term }).locator("+ dd").getByRole("link").getAttribute("href"),
        term,
      ).toMatch(/^\/contract\/C[A-Z2-7]{55}$/);
    expect(await rows.filter({ hasText: "bob.acme" }).locator("td").nth(1).getByRole("link").count()).toBe(1);
    // Three names fit one page: no button for more.
    expect(await page.getByRole("button", { name: "Show more names" }).count()).toBe(0);

    // Pages of one name (the page's requests asked with limit=1): the button follows the API's cursor until the
    // last page, and the names arrive in order, each once.
    await page.route("**/v1/namespaces/acme/names*", (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("limit", "1");
      return route.continue({ url: url.toString() });
    });
    try {
      await page.goto(`${base}/namespace/acme`);
      const more = page.getByRole("button", { name: "Show more names" });
      for (const shown of [["alice.acme"], ["alice.acme", "bob.acme"]]) {
        await rows.nth(shown.length - 1).waitFor();
        expect(await rows.locator("td:first-child").allInnerTexts()).toEqual(shown);
        await more.click();
      }
      await rows.nth(2).waitFor();
      expect(await rows.locator("td:first-child").allInnerTexts()).toEqual([
        "alice.acme",
        "bob.acme",
        "old.acme",
      ]);
      expect(await more.count()).toBe(0);
    } finally {
      await page.unroute("**/v1/namespaces/acme/names*");
    }
    await page.getByText("Not listed for sale.").waitFor();
    expect(await page.getByRole("link", { name: "Past sales" }).getAttribute("href")).toBe("/market/acme");
    await check("namespace-acme");

    // A namespace that is for sale links its listing.
    await page.goto(`${base}/namespace/${listed}`);
    const listing = page.getByRole("link", { name: "the listing" });
    await listing.waitFor();
    expect(await page.locator("p", { has: listing }).innerText()).toMatch(/^Listed at 100 XLM since /);
    expect(await listing.getAttribute("href")).toBe(`/market/${listed}`);
    await page.getByText("No name has been issued in this namespace.").waitFor();
    await check("namespace-listed");
  });

  it("says once that a namespace does not exist, and still shows its claim, whose link opens the claim", async () => {
    await page.goto(`${base}/namespace/newco`);
    const missing = page.locator('[data-code="namespace_not_found"]');
    await missing.waitFor();
    expect(await missing.count()).toBe(1);
    expect(await missing.locator("p").first().innerText()).toBe("There is no such namespace.");
    const claim = page.getByRole("link", { name: "Claim 1" });
    await claim.waitFor();
    expect(await page.locator("li", { has: claim }).innerText()).toMatch(
      /^Claim 1: Announced, open to objections, by G[A-Z2-7]{55}, announced at ledger \d+$/,
    );
    await check("namespace-unallocated", ["/v1/namespaces/newco"]);
    await claim.click();
    await page.waitForURL(/\/claims#claim-1$/);
    await page.locator("#claim-1 h3").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "claim-1");
  });

  it("shows alice.acme's resolution, records, history with ledger and transaction, and subnames as links", async () => {
    await page.goto(`${base}/name/alice.acme`);
    await page.getByRole("heading", { name: "History" }).waitFor();
    const records = page.locator("table", { has: page.locator("caption", { hasText: "Records" }) });
    await records.waitFor();
    expect(await records.locator("tr", { hasText: "url" }).locator("td").nth(1).innerText()).toBe(
      DEMO_TEXT.url,
    );
    expect(await records.locator("tr", { hasText: "avatar" }).locator("td").nth(1).innerText()).toBe(
      DEMO_TEXT.avatar,
    );
    // Web addresses under url and avatar are links that pass nothing of this page along.
    for (const key of ["url", "avatar"] as const) {
      const link = records.locator("tr", { hasText: key }).getByRole("link");
      expect(await link.getAttribute("href"), key).toBe(new URL(DEMO_TEXT[key]).href);
      expect(await link.getAttribute("rel"), key).toBe("noopener noreferrer nofollow");
    }
    // The caption repeats the heading: out of sight, still in the table for screen readers.
    expect(await records.locator("caption").evaluate((el) => getComputedStyle(el).position)).toBe("absolute");
    // What the pay-to account calls the name, in words.
    expect(
      await page.locator("p", { hasText: /^alice\.acme is (not )?the display name of G/ }).innerText(),
    ).toMatch(
      // The records answer primaryName: null here (no primary read): said as unchecked, not as "no".
      /^alice\.acme is the display name of G[A-Z2-7]{55} in acme\. Whether alice\.acme is its primary name could not be checked\.$/,
    );
    const holder = page.locator("dt", { hasText: "Holder" }).locator("+ dd").getByRole("link");
    expect(await holder.innerText()).toMatch(/^G[A-Z2-7]{55}$/);
    // Its network addresses, read live, for anyone (not only its signed-in holder): acme allows two networks.
    const networks = page.getByRole("list", { name: "Addresses on other networks" });
    await networks.waitFor();
    expect(await networks.locator("li").allInnerTexts()).toEqual([
      `ethereum: ${DEMO_ETHEREUM}`,
      "bitcoin: none",
    ]);
    // The timeline, newest first: the record changes the demo made after issuing alice.acme, then the issue.
    const history = page
      .locator("table", { has: page.locator("caption", { hasText: "History" }) })
      .locator("tbody tr");
    await history.first().waitFor();
    expect(await history.locator("td:first-child").allInnerTexts()).toEqual([
      "Display name set",
      "A network address changed",
      "A text record changed",
      "A text record changed",
      "Payment instruction set",
      "Issued",
    ]);
    const issued = await history.last().locator("td").allInnerTexts();
    expect(issued[1]).toMatch(/^\d+$/);
    expect(issued[3]).toMatch(/^[0-9a-f]{64}$/);
    expect(await history.last().getByRole("link").getAttribute("href")).toBe(`/tx/${issued[3]}`);
    // A time stays on one line in the History table at 1280 px.
    await page.setViewportSize({ width: 1280, height: 900 });
    const time = history.last().locator("time");
    expect(await time.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await time.evaluate((el) => el.getClientRects().length)).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    const subnames = page.locator("table", { has: page.locator("caption", { hasText: "Subnames" }) });
    await subnames.waitFor();
    const pay = subnames.locator("tr", { hasText: "pay.alice.acme" });
    expect(await pay.locator("td").nth(1).innerText()).toBe("active");
    expect(await page.locator(".error").count()).toBe(0);
    await check("name-alice.acme");

    // The subname is a link to its own page, read through the subname routes.
    await pay.getByRole("link", { name: "pay.alice.acme" }).click();
    await page.waitForURL(/\/name\/pay\.alice\.acme$/);
    await page.locator("dt", { hasText: "Pays to" }).waitFor();
    expect(await page.locator("dt", { hasText: "State" }).locator("+ dd").innerText()).toBe(
      "Active: it resolves",
    );
    // The chain's generation counter is a machine value: only under Details.
    expect(await page.locator("dt", { hasText: "Generation" }).isVisible()).toBe(false);
    expect(await page.locator(".error").count()).toBe(0);
    await check("name-pay.alice.acme");
  });

  it("opens the holder's account page from a name: the names it holds, each a link", async () => {
    await page.goto(`${base}/name/alice.acme`);
    const holder = page.locator("dt", { hasText: "Holder" }).locator("+ dd").getByRole("link");
    const address = await holder.innerText();
    await holder.click();
    await page.waitForURL(new RegExp(`/account/${address}$`));
    const held = page.locator("table", { has: page.locator("caption", { hasText: "Names held" }) });
    await held.getByRole("link", { name: "alice.acme" }).waitFor();
    await page.getByRole("heading", { name: "Primary name" }).waitFor();
    await page.locator("main .hint", { hasText: "Loading" }).first().waitFor({ state: "detached" });
    await check("account", ["/v1/reverse/"]);
  });

  it('offers the account\'s page for a G… address typed in the lookup, instead of "nothing found"', async () => {
    await page.goto(`${base}/name/alice.acme`);
    const holder = await page
      .locator("dt", { hasText: "Holder" })
      .locator("+ dd")
      .getByRole("link")
      .innerText();
    await page.goto(`${base}/`);
    await page.getByLabel("Name or namespace").pressSequentially(holder.toLowerCase(), { delay: 5 });
    const result = page.getByRole("list", { name: "Lookup results" }).getByRole("link", { name: holder });
    await result.waitFor();
    expect(await page.locator("#lookup-results").innerText()).not.toContain("Nothing found");
    await result.click();
    await page.waitForURL(new RegExp(`/account/${holder}$`));
  });

  it("names each account page after its account", async () => {
    await page.goto(`${base}/name/alice.acme`);
    const holder = page.locator("dt", { hasText: "Holder" }).locator("+ dd").getByRole("link");
    const address = await holder.innerText();
    await holder.click();
    await page.waitForURL(new RegExp(`/account/${address}$`));
    expect(await page.title()).toBe(`Account ${address.slice(0, 4)}…${address.slice(-4)} · namereg`);
  });

  it("moves focus to the new page's heading after a link is followed, not to the lookup form above it", async () => {
    await page.goto(`${base}/`);
    await page.locator("#status-summary").waitFor();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Claim queue" })
      .press("Enter");
    await page.waitForURL(/\/claims$/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("page-title");
    // The next Tab reaches the page's own content, not the lookup box.
    await page.getByRole("heading", { name: "Pending" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("#view") !== null)).toBe(true);
  });

  it('says once that an account address is not one, with no claims section that reads "no claim"', async () => {
    await page.goto(`${base}/account/gbad`);
    const invalid = page.locator('[data-code="bad_address"]');
    await invalid.waitFor();
    expect(await invalid.count()).toBe(1);
    expect(await invalid.locator("p").first().innerText()).toBe(
      "That is not a Stellar account address (G…, 56 characters).",
    );
    expect(await page.locator("#view").innerText()).not.toContain("no claim");
    await check("account-invalid");
  });

  it("does not call a lone label a namespace when it is not one", async () => {
    await page.goto(`${base}/name/nosuch`);
    const view = page.locator("#view");
    await view.getByRole("link", { name: "nosuch" }).waitFor();
    expect(await view.innerText()).not.toContain("is a namespace");
    expect(await view.locator("p").first().innerText()).toBe(
      "A name reads label.namespace (e.g. alice.acme); “nosuch” alone would be a namespace: see nosuch.",
    );
  });

  it("follows a transaction hash to what the transaction did, from the archive", async () => {
    await page.goto(`${base}/name/alice.acme`);
    const issuedLink = page
      .locator("table", { has: page.locator("caption", { hasText: "History" }) })
      .locator("tbody tr", { hasText: "Issued" })
      .getByRole("link");
    await issuedLink.waitFor();
    const hash = await issuedLink.innerText();
    await issuedLink.click();
    await page.waitForURL(new RegExp(`/tx/${hash}$`));
    const events = page.locator("table", {
      has: page.locator("caption", { hasText: "Events of this transaction" }),
    });
    await events.waitFor();
    expect(await events.locator("tbody tr td:first-child").allInnerTexts()).toEqual([
      "Name changed at the registrar (issue, transfer, renewal, reclaim or address)",
    ]);
    // The contract as what it is; its id and the contracts' own event type only under Details.
    expect(await events.locator("tbody tr td").nth(1).innerText()).toBe("A namespace's registrar");
    expect(await page.locator("details", { hasText: "name_v1" }).count()).toBe(1);
    expect(
      await page.locator("details", { hasText: /Contracts, in the same order: C[A-Z2-7]{55}\./ }).count(),
    ).toBe(1);
    expect(await page.locator("details a", { hasText: "these events as JSON" }).getAttribute("href")).toBe(
      `/v1/events?txHash=${hash}`,
    );
    await check("transaction");
    // Its contract is a link to that contract's events.
    const contract = events
      .locator("tbody tr td")
      .nth(1)
      .getByRole("link", { name: "A namespace's registrar" });
    const contractId = ((await contract.getAttribute("href")) ?? "").replace(/^\/contract\//, "");
    expect(contractId).toMatch(/^C[A-Z2-7]{55}$/);
    await contract.click();
    await page.waitForURL(new RegExp(`/contract/${contractId}$`));
    const contractEvents = page.locator("table", {
      has: page.locator("caption", { hasText: "Events of this contract" }),
    });
    await contractEvents.locator("tbody tr").first().waitFor();
    // Named as what it is, its id under Details.
    expect(await page.locator("h1").innerText()).toBe("A namespace's registrar");
    expect(await page.locator("details", { hasText: `Contract id ${contractId}` }).count()).toBe(1);
    expect(await contractEvents.locator("tbody tr td:first-child").first().innerText()).not.toBe("");
    expect(await contractEvents.locator("tbody tr").first().getByRole("link").getAttribute("href")).toMatch(
      /^\/tx\/[0-9a-f]{64}$/,
    );
    expect(await page.getByRole("link", { name: "these events as JSON" }).getAttribute("href")).toBe(
      `/v1/events?contractId=${contractId}`,
    );
    await check("contract");

    await page.goto(`${base}/tx/${"0".repeat(64)}`);
    await page.getByText("The archive holds no event of this transaction").waitFor();
    await page.goto(`${base}/tx/nothex`);
    expect(await page.locator('[data-code="invalid_request"] p').first().innerText()).toBe(
      "That is not a transaction hash: a hash is 64 hexadecimal digits.",
    );
  });

  it("says what a refusal means, once: no such name, no such namespace, an expired name's records, a reclaimed name", async () => {
    // Only what the page cannot foresee is asked: a missing name is one refused request, not one per section.
    const refused: string[] = [];
    const onResponse = (response: { url(): string; status(): number }) => {
      if (response.status() >= 400) refused.push(new URL(response.url()).pathname);
    };
    page.on("response", onResponse);
    await page.goto(`${base}/name/nosuch.acme`);
    const missing = page.locator('[data-code="name_not_found"]').first();
    await missing.waitFor();
    expect(await missing.locator("p").first().innerText()).toBe("There is no such name.");
    expect(await page.locator("#view .error").count()).toBe(1);
    expect(refused).toEqual(["/v1/names/acme/nosuch/history"]);
    await page.goto(`${base}/name/alice.nowhere`);
    await page.locator('[data-code="namespace_not_found"]').waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    // gone.acme was issued and reclaimed: not issued now, with its history.
    await page.goto(`${base}/name/gone.acme`);
    const gone = page.locator("table", { has: page.locator("caption", { hasText: "History" }) });
    await gone.waitFor();
    expect(await gone.locator("tbody tr td:first-child").allInnerTexts()).toEqual([
      "Reclaimed by the namespace owner",
      "Issued",
    ]);
    expect(await page.locator('[data-code="name_not_issued"]').count()).toBe(1);
    // A subname under a name that was never issued, and a listing of a namespace that does not exist: once each.
    await page.goto(`${base}/name/pay.nosuch.acme`);
    await page.locator('[data-code="name_not_found"]').waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    // The listing's page reads the namespace once (its sales are read by the node from that answer).
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname === "/v1/namespaces/nosuch") asked.push(request.url());
    };
    page.on("request", onRequest);
    await page.goto(`${base}/market/nosuch`);
    await page.locator('[data-code="namespace_not_found"]').waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    page.off("request", onRequest);
    expect(asked).toHaveLength(1);
    // A namespace that is no label: said once, and nothing else.
    await page.goto(`${base}/namespace/Bad_`);
    await page.locator('[data-code="invalid_name"]').first().waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    expect(await page.locator("#view h2").count()).toBe(0);
    expect(await page.getByText("Past sales").count()).toBe(0);
    await page.goto(`${base}/name/old.acme`);
    const expired = page.locator('[data-code="name_expired"]').first();
    await expired.waitFor();
    expect(await expired.locator("p").first().innerText()).toBe(
      "This name has expired; its records no longer resolve.",
    );
    // Its history is still there, and the expiry is said once, not again under Records.
    await page.locator("table", { has: page.locator("caption", { hasText: "History" }) }).waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    await page.goto(`${base}/name/a..acme`);
    const invalid = page.locator('[data-code="invalid_name"]').first();
    await invalid.waitFor();
    expect(await invalid.locator("p").first().innerText()).toMatch(/^That is not a valid name\./);
    // A label the server refuses (the one rule for name segments): said once, not by every section.
    await page.goto(`${base}/name/bad_label.acme`);
    await page.locator('[data-code="invalid_name"]').first().waitFor();
    expect(await page.locator("#view .error").count()).toBe(1);
    expect(await page.locator("body").innerText()).not.toMatch(/answered \d{3}/);
    // plain's policy refuses new subnames: carol.plain's page does not promise its holder can create one.
    await page.goto(`${base}/name/carol.plain`);
    await page.getByText(/^Namespace plain allows no new subnames now/).waitFor();
    expect(await page.getByText("can create and remove its subnames").count()).toBe(0);
    // plain has no resolver: a fact about the namespace, said as a note under Records, not as an error.
    const noResolver = page.locator('[data-code="no_resolver"]');
    await noResolver.waitFor();
    expect(await noResolver.innerText()).toBe(
      "This namespace has no resolver, so its names carry no records.",
    );
    expect(await page.locator("#view .error").count()).toBe(0);
    // …and never asked for them (the answer would be 409 no_resolver, logged by the browser as an error).
    refused.length = 0;
    session.reset();
    await page.reload();
    await noResolver.waitFor();
    await page.getByRole("heading", { name: "History" }).waitFor();
    expect(refused).toEqual([]);
    page.off("response", onResponse);
    await check("a name in a namespace without a resolver");
  });

  it("shows the claim queue: each claim's state in words, basis, evidence and objections, its namespace a link", async () => {
    await page.goto(`${base}/claims`);
    const pending = page.getByRole("region", { name: "Pending" }).getByRole("article");
    await pending.first().waitFor();
    const newco = pending.filter({ hasText: "newco" });
    expect(await newco.locator("h3").innerText()).toBe("Claim 1: newco");
    expect(await newco.getByRole("link", { name: "newco", exact: true }).getAttribute("href")).toBe(
      "/namespace/newco",
    );
    const term = (card: typeof newco, name: string) => card.locator("dt", { hasText: name }).locator("+ dd");
    expect(await term(newco, "State").innerText()).toBe("Announced, open to objections");
    expect(await term(newco, "Basis").innerText()).toBe("trademark");
    // The evidence's label and its address, both written by the claimant: the address is the link's text.
    expect(await term(newco, "Evidence").innerText()).toBe(
      "Trademark registration: https://evidence.example/newco",
    );
    const evidence = term(newco, "Evidence").getByRole("link", { name: "https://evidence.example/newco" });
    expect(await evidence.getAttribute("href")).toBe("https://evidence.example/newco");
    expect(await evidence.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(await term(newco, "Objections").innerText()).toBe("none");
    const contested = page
      .getByRole("region", { name: "Objected" })
      .getByRole("article", { name: /contested/ });
    expect(await term(contested, "State").innerText()).toBe("Objected");
    expect(await term(contested, "Objections").innerText()).toMatch(
      /^G[A-Z2-7]{55} on the basis of prior use, with a bond of 10 XLM$/,
    );
    const awarded = page.getByRole("region", { name: "Awarded" }).getByRole("article", { name: /winner/ });
    expect(await term(awarded, "State").innerText()).toBe("Awarded");

    // A quote of the claim fee, by keyboard: type the label, Enter.
    await page.getByLabel("Namespace to claim").fill("brandnew");
    await page.getByLabel("Namespace to claim").press("Enter");
    // This harness configures no allocator, so the quote is refused: the page says what that means.
    const refused = page.locator('section[aria-labelledby="quote-title"] [data-code="chain_unavailable"]');
    await refused.waitFor();
    expect(await refused.locator("p").first().innerText()).toBe(
      "The chain cannot be reached right now. Try again shortly.",
    );
    await check("claims", ["/v1/claim-fee/brandnew"]);
  });

  it("shows the market listing, and the listing's page with its sales", async () => {
    await page.goto(`${base}/market`);
    const listings = page.locator("table", { has: page.locator("caption", { hasText: "Listings" }) });
    await listings.waitFor();
    const row = listings.locator("tbody tr", { hasText: listed });
    expect((await row.locator("td").allInnerTexts()).slice(0, 3)).toEqual([listed, "100 XLM", "2.5 %"]);
    await check("market");
    // Each open listing offers Buy, straight to its buying steps.
    await row.getByRole("link", { name: `Buy ${listed}` }).click();
    await page.waitForURL(new RegExp(`/market/${listed}#buy$`));
    expect(await page.locator("dt", { hasText: "Price" }).locator("+ dd").innerText()).toBe("100 XLM");
    await page.getByText(`Sign in with your wallet to buy ${listed}.`).waitFor();
    await page.getByText("No past sales.").waitFor();
    await check("listing");
    // Not a dead end pointing at the header: the page's own button opens the sign-in dialog where the person is.
    await page.getByRole("button", { name: `Sign in to buy ${listed}` }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in with a wallet" });
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("shows the API reference with our title and operation summaries, without Scalar's promotions", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/docs/`);
    await page.getByText("Service status: each component's state and the observed ledger").first().waitFor();
    expect(await page.title()).toBe("namereg API reference");
    const body = await page.locator("body").innerText();
    for (const promotion of ["Ask AI", "Generate SDK", "Deploy", "Generate MCP"])
      expect(body).not.toContain(promotion);
    await shot("docs");
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it("answers an unknown page with the app's own Page not found page (HTTP 404), and API paths with JSON", async () => {
    const response = await page.goto(`${base}/no-such-page`);
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    const home = page.getByRole("link", { name: "Go to the home page" });
    expect(await home.getAttribute("href")).toBe("/");
    expect(await page.title()).toBe("Page not found · namereg");
    await check("not-found", ["/no-such-page"]);
    await home.click();
    await page.locator("#status-summary").waitFor();

    const api = await page.goto(`${base}/v1/no-such-route`);
    expect(api?.status()).toBe(404);
    expect(JSON.parse(await page.locator("body").innerText())).toEqual({ error: "not_found" });
  });

  it("serves the icon the browser asks for", async () => {
    const icon = await page.request.get(`${base}/favicon.ico`);
    expect(icon.status()).toBe(200);
  });

  it("shows a record value written to deceive as what it is: isolated, its U+202E named, its host in punycode", async () => {
    // bob.acme's holder writes a link whose host has a Cyrillic "а" (U+0430) for the Latin "a", and whose path
    // hides a right-to-left override: shown as written, it reads "https://apple.com/exe.png".
    const spoof = "https://\u0430pple.com/\u202egnp.exe";
    const note = "pay \u202eylno 01 XLM";
    const resolver = h.devnet.demo?.namespaces.acme.resolver ?? "";
    const bob = demoKeypair("bob");
    const node = nameNode("bob", "acme");
    await h.wallet.invoke(bob, resolver, ResolverFns.set_text, { node, key: "url", value: spoof });
    await h.wallet.invoke(bob, resolver, ResolverFns.set_text, { node, key: "note", value: note });
    await h.sync();

    await page.goto(`${base}/name/bob.acme`);
    const records = page.locator("table", { has: page.locator("caption", { hasText: "Records" }) });
    const url = records.locator("tr", { hasText: "url" }).locator("td").nth(1);
    await url.waitFor();
    // The link shows and opens the ASCII host the browser connects to; the override is percent-encoded there.
    const link = url.getByRole("link");
    expect(await link.innerText()).toBe("https://xn--pple-43d.com/%E2%80%AEgnp.exe");
    expect(await link.getAttribute("href")).toBe("https://xn--pple-43d.com/%E2%80%AEgnp.exe");
    expect(await url.innerText()).toContain("shown as the address the browser opens");
    // Text values are isolated from the page's own text, and their controls named, not applied.
    const value = records.locator("tr", { hasText: "note" }).locator("td").nth(1);
    expect(await value.locator("bdi").count()).toBe(1);
    expect(await value.innerText()).toBe("pay [RLO]ylno 01 XLM");
    expect(await value.locator("abbr").getAttribute("title")).toBe("invisible control character U+202E");
    // No override reaches the rendered text of the records.
    expect(await records.innerText()).not.toContain("\u202e");
    await check("a deceptive record value");
  });
});
