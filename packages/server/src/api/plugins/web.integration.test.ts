// The web page in a real browser: Debian's Chromium driven by playwright-core, against the demo chain indexed into
// a database, with the marketplace on and one namespace listed (what `namereg dev` shows). Each page is opened,
// screenshotted into test-artifacts/screenshots/ (kept out of git) and checked for what a person sees.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { DEMO_TEXT } from "@namereg/devnet";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketHarness, startMarketHarness } from "../../../test/fixtures/market.ts";
import { ChainClient } from "../../chain/chain-client.ts";
import { RpcClient } from "../../chain/rpc-client.ts";
import { type App, buildApp } from "../app.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SCREENSHOTS = fileURLToPath(new URL("../../../../../test-artifacts/screenshots/", import.meta.url));

describe("the web page in Chromium", () => {
  let h: MarketHarness;
  let app: App;
  let browser: Browser;
  let page: Page;
  let base: string;
  let listed: string;

  beforeAll(async () => {
    // Not a skip: a machine without the browser cannot vouch for the page, so the suite fails and says why.
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    await mkdir(SCREENSHOTS, { recursive: true });
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
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    // The page must not reach beyond the API.
    await page.route("**/*", (route) =>
      route.request().url().startsWith(base) ? route.continue() : route.abort("blockedbyclient"),
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await h?.close();
  });

  const shot = (name: string) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  const text = async (selector: string) => (await page.locator(selector).innerText()).trim();

  it("shows an all-operational status and the coverage", async () => {
    await page.goto(`${base}/`);
    await page.locator("#status-summary").waitFor();
    expect(await text("#status-summary")).toMatch(/^All systems operational · ledger \d+$/);
    for (const component of ["Database", "Indexer", "Escrow watcher"])
      expect(await page.locator("tr", { hasText: component }).locator(".state").innerText()).toBe(
        "operational",
      );
    expect(await text("#coverage-title")).toBe("Coverage");
    expect(await page.locator("dt", { hasText: "Complete" }).locator("+ dd").innerText()).toBe("yes");
    await shot("status");
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
    await page.waitForURL(/#\/name\/alice\.acme$/);
    expect(await text("h1")).toBe("alice.acme");
  });

  it("shows alice.acme's resolution, records, history with ledger and transaction, and subnames", async () => {
    await page.goto(`${base}/#/name/alice.acme`);
    await page.getByRole("heading", { name: "History" }).waitFor();
    const records = page.locator("table", { has: page.locator("caption", { hasText: "Records" }) });
    expect(await records.locator("tr", { hasText: "url" }).locator("td").nth(1).innerText()).toBe(
      DEMO_TEXT.url,
    );
    expect(await records.locator("tr", { hasText: "avatar" }).locator("td").nth(1).innerText()).toBe(
      DEMO_TEXT.avatar,
    );
    expect(await page.locator("dt", { hasText: "Holder" }).locator("+ dd").innerText()).toMatch(
      /^G[A-Z2-7]{55}$/,
    );
    const issued = page
      .locator("table", { has: page.locator("caption", { hasText: "History" }) })
      .locator("tbody tr");
    const first = await issued.first().locator("td").allInnerTexts();
    expect(first[0]).toBe("issued");
    expect(first[1]).toMatch(/^\d+$/);
    expect(first[3]).toMatch(/^[0-9a-f]{64}$/);
    const subnames = page.locator("table", { has: page.locator("caption", { hasText: "Subnames" }) });
    expect(await subnames.locator("tr", { hasText: "pay.alice.acme" }).locator("td").nth(1).innerText()).toBe(
      "active",
    );
    expect(await page.locator(".error").count()).toBe(0);
    await shot("name-alice.acme");
  });

  it("shows the claim queue with the demo's pending claim", async () => {
    await page.goto(`${base}/#/claims`);
    const pending = page.locator("table", { has: page.locator("caption", { hasText: "Pending claims" }) });
    await pending.waitFor();
    expect(await pending.locator("tbody tr").first().locator("td").first().innerText()).toBe("newco");
    await shot("claims");
  });

  it("shows the market listing", async () => {
    await page.goto(`${base}/#/market`);
    const listings = page.locator("table", { has: page.locator("caption", { hasText: "Listings" }) });
    await listings.waitFor();
    const row = await listings.locator("tbody tr", { hasText: listed }).locator("td").allInnerTexts();
    expect(row.slice(0, 2)).toEqual([listed, "100.0000000"]);
    await shot("market");
  });
});
