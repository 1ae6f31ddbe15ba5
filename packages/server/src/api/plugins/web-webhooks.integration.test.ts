// The owner's webhook console in a real browser: Debian's Chromium driven by playwright-core against an app wired as
// `namereg dev` wires it (the demo devnet, indexed; the Demo wallet; http:// and private targets allowed, as dev
// allows them). acme's owner opens the webhooks page from the namespace page, is refused a URL with the reason in
// words, registers an endpoint at a local http receiver, sees its secret once (and never again, on the page or
// through the API), rotates it, opens its (empty) delivery log and deletes it. axe-core finds no serious or critical
// violation at 390 and 1280 px, and no page logs an error. A renewal on the chain, indexed, is delivered to the
// receiver by the deliverer (run here pass by pass) and shows in the page's log, where it is sent again.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { RegistrarFns } from "@namereg/protocol";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../../test/fixtures/demo.ts";
import { waitForProgress } from "../../../test/fixtures/progress.ts";
import { ChainClient } from "../../chain/chain-client.ts";
import { RpcClient } from "../../chain/rpc-client.ts";
import { contractEnv, demoWalletOf } from "../../runtime/commands/dev.ts";
import { WebhookDeliverer } from "../../webhooks/deliverer.ts";
import { takeDelivererEpoch } from "../../webhooks/store.ts";
import { type App, buildApp } from "../app.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/** Reads this app refuses, which Chromium logs as failed loads: the market is off; a refused URL is a 400. */
const MARKET_OFF = "/v1/market/listings";

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

interface Listed {
  webhooks: { id: string; url: string; types: string[]; enabled: boolean; secret?: unknown }[];
}

describe("the owner's webhook console in Chromium, with the Demo wallet of a dev app", () => {
  let chain: IndexedDemoChain;
  let app: App;
  let browser: Browser;
  let page: Page;
  let base: string;
  let receiver: Server;
  let target: string;
  const consoleErrors: string[] = [];
  /** The bodies the local receiver was sent. */
  const received: string[] = [];
  const owner = demoKeypair("acme").publicKey();

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    chain = await indexDemo("pglite");
    const { devnet } = chain;
    devnet.setCloseInterval(250);
    const rpc = new RpcClient(devnet.rpcUrl, { retries: 0 });
    app = await buildApp({
      config: testConfig({
        RPC_URL: devnet.rpcUrl,
        NETWORK_PASSPHRASE: devnet.networkPassphrase,
        ...contractEnv(devnet),
        // As `namereg dev` sets them (runtime/commands/dev.ts): a receiver on this machine, over http.
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      }),
      db: chain.database,
      redis: null,
      chain: { head: () => rpc.getLatestLedger() },
      chainClient: new ChainClient(devnet.rpcUrl, devnet.networkPassphrase),
      demoWallet: demoWalletOf(devnet),
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push(Buffer.concat(chunks).toString());
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await app?.close();
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  async function check(name: string, refusals: readonly string[] = []): Promise<void> {
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
    // The owner console on the namespace page asks for billing and the seller's listings, which this app has off:
    // their 409s billing_disabled and market_disabled are expected (the page says so in words).
    const expected = [...refusals, "/console/billing", "/console/market/listings"];
    const unexpected = consoleErrors.filter(
      (e) => !(e.includes("Failed to load resource") && expected.some((url) => e.includes(url))),
    );
    expect(unexpected, name).toEqual([]);
  }

  const focused = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active === null ? "" : (active as HTMLElement).innerText.trim();
    });

  async function tokenAndList(): Promise<Listed> {
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem("namereg.session") ?? "{}") as { token?: string }).token,
    );
    const listed = await app.inject({
      url: "/console/webhooks",
      headers: { authorization: `Bearer ${token}`, "x-service-namespace": "acme" },
    });
    expect(listed.statusCode).toBe(200);
    return listed.json() as Listed;
  }

  it("as acme's owner registers an endpoint, sees its secret once, rotates it, and deletes it", async () => {
    await page.goto(`${base}/namespace/acme`);
    // Signed out, the namespace page links no webhooks.
    expect(await page.getByRole("link", { name: "Hosted webhooks of acme" }).count()).toBe(0);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in with a wallet" });
    await dialog.getByLabel("Act as").selectOption("acme");
    await dialog.getByRole("button", { name: "Sign in with the Demo wallet" }).click();
    await page.getByRole("region", { name: "Wallet session" }).waitFor();
    await page.getByRole("link", { name: "Hosted webhooks of acme" }).click();
    await page.getByRole("heading", { name: "Webhooks of acme", level: 1 }).waitFor();
    expect(page.url()).toBe(`${base}/namespace/acme/webhooks`);
    await page.getByText("No endpoints yet.").waitFor();
    await check("no endpoints", [MARKET_OFF]);

    // A URL the service refuses: the reason, in words, with the service's detail.
    await page.getByLabel("Endpoint URL").fill("ftp://127.0.0.1/hooks");
    await page.getByRole("checkbox", { name: "name.issued" }).check();
    await page.getByRole("button", { name: "Register endpoint" }).click();
    const refused = page.locator('[data-code="invalid_webhook_url"]');
    await refused.waitFor();
    expect(await refused.locator("p").first().innerText()).toBe(
      "The service does not send to that URL; the details below say why.",
    );
    expect(await refused.locator("p").nth(1).innerText()).toMatch(/^Details: .+/);
    await check("a refused URL", [MARKET_OFF, "/console/webhooks"]);

    await page.getByLabel("Endpoint URL").fill(target);
    await page.getByRole("checkbox", { name: "name.renewed" }).check();
    await page.getByRole("button", { name: "Register endpoint" }).click();
    const note = page.getByRole("status").filter({ hasText: "Store it now" });
    await note.waitFor();
    const secret = await page.getByTestId("webhook-secret").innerText();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await note.innerText()).toContain("it is shown only this once");
    // The note takes the focus, for a screen reader to read it.
    expect(await focused()).toContain("Store it now");
    expect(await note.getByRole("button", { name: "Copy secret" }).count()).toBe(1);
    const endpoint = page.locator("li", { has: page.getByRole("heading", { name: target }) });
    await endpoint.waitFor();
    expect(await endpoint.innerText()).toContain("Enabled.");
    expect(await endpoint.innerText()).toContain("Types: name.issued, name.renewed.");
    await check("registered", [MARKET_OFF, "/console/webhooks"]);

    // The API lists it, without the secret.
    const listed = await tokenAndList();
    expect(listed.webhooks).toHaveLength(1);
    const [made] = listed.webhooks;
    expect(made).toMatchObject({ url: target, types: ["name.issued", "name.renewed"], enabled: true });
    expect(JSON.stringify(listed)).not.toContain(secret);

    // Once stored, the secret is gone from the page.
    await note.getByRole("button", { name: "I stored it" }).click();
    expect(await page.getByTestId("webhook-secret").count()).toBe(0);

    // A rotation shows the new secret once.
    await endpoint.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = page.getByRole("status").filter({ hasText: "New signing secret" });
    await rotated.waitFor();
    const next = await page.getByTestId("webhook-secret").innerText();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect(await rotated.innerText()).toContain("The previous secret also signs for 24 hours");
    await endpoint.getByText(/The previous secret signs too until/).waitFor();
    await rotated.getByRole("button", { name: "I stored it" }).click();

    // Its delivery log: nothing yet.
    await endpoint.getByRole("button", { name: "Show deliveries" }).click();
    await endpoint.getByText("No deliveries yet").waitFor();
    expect(
      await endpoint.getByRole("button", { name: "Hide deliveries" }).getAttribute("aria-expanded"),
    ).toBe("true");

    // A renewal in acme, indexed and delivered: the page's log shows the attempt, and sends it again on request.
    const { devnet, indexer } = chain;
    const registrar = devnet.demo?.namespaces.acme.registrar ?? "";
    const later = BigInt(Math.floor(Date.now() / 1000) + 3 * 365 * 86_400);
    await settlingWallet(devnet).invoke(demoKeypair("acme"), registrar, RegistrarFns.renew, {
      label: "bob",
      expiresAt: later,
    });
    await runUntilIdle(indexer);
    const db = chain.database.db;
    const settings = testConfig({
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    }).webhooks;
    const deliverer = new WebhookDeliverer({ db, settings, epoch: await takeDelivererEpoch(db, new Date()) });
    const deliver = (count: number) =>
      waitForProgress(
        async () => {
          await deliverer.pass({ fanOut: true });
          await deliverer.settle();
          return received.length >= count;
        },
        `${count} deliveries received`,
        { measure: () => received.length },
      );
    await deliver(1);
    expect(JSON.parse(received[0] ?? "{}")).toMatchObject({
      type: "name.renewed",
      data: { namespace: "acme" },
    });
    await endpoint.getByRole("button", { name: "Refresh deliveries" }).click();
    const log = endpoint.locator("table", { has: page.locator("caption", { hasText: "Deliveries to" }) });
    const row = log.locator("tbody tr").first();
    await row.getByText("delivered").waitFor();
    expect(await row.locator("td").first().innerText()).toMatch(/^name\.renewed at position \d+$/);
    expect(await row.locator("td").nth(2).innerText()).toMatch(/HTTP 200 in \d+ ms “ok”/);
    await check("delivery log", [MARKET_OFF, "/console/webhooks"]);
    await row.getByRole("button", { name: /^Send again: name\.renewed at \d+$/ }).click();
    await deliver(2);
    expect(received[1]).toBe(received[0]);
    await endpoint.getByRole("button", { name: "Refresh deliveries" }).click();
    await log.locator("tbody tr").first().locator("li").nth(1).waitFor();

    // Delete asks first; keeping it keeps it, and the keyboard confirms.
    await endpoint.getByRole("button", { name: "Delete" }).click();
    await endpoint.getByRole("button", { name: "Keep it" }).click();
    expect((await tokenAndList()).webhooks).toHaveLength(1);
    await endpoint.getByRole("button", { name: "Delete" }).click();
    const yes = endpoint.getByRole("button", { name: `Yes, delete ${target}` });
    await yes.waitFor();
    await expect.poll(focused).toBe(`Yes, delete ${target}`);
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({ hasText: `Deleted ${target}.` })
      .waitFor();
    await page.getByText("No endpoints yet.").waitFor();
    expect((await tokenAndList()).webhooks).toEqual([]);
    expect(made?.id).toBeDefined();
    await check("deleted", [MARKET_OFF, "/console/webhooks"]);
  });

  it("tells another account it is not the owner, in words", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Sign in with a wallet" });
    await dialog.getByLabel("Act as").selectOption("bob");
    await dialog.getByRole("button", { name: "Sign in with the Demo wallet" }).click();
    await page.getByRole("region", { name: "Wallet session" }).waitFor();
    const refused = page.locator('[data-code="not_namespace_owner"]');
    await refused.waitFor();
    expect(await refused.locator("p").first().innerText()).toBe("Only the namespace's owner can do this.");
    expect(owner).not.toBe(demoKeypair("bob").publicKey());
  });
});
