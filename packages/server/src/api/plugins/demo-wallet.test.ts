// The Demo wallet exists only in an app built with `demoWallet` (what `namereg dev` builds): there GET
// /dev/demo-wallet gives the demo accounts and every page address serves index.html marked for it; an app built
// without it (`serve`, `start`) answers 404 there and serves the page unmarked. Neither lists the route in the
// OpenAPI document.
import { type DemoManifest, demoAccounts } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { demoWalletOf } from "../../runtime/commands/dev.ts";
import { type App, buildApp } from "../app.ts";
import type { DemoWallet } from "./demo-wallet.ts";
import { DEMO_WALLET_META } from "./web.ts";

const WALLET: DemoWallet = {
  networkPassphrase: "Standalone Network ; February 2017",
  accounts: [
    {
      role: "alice",
      note: "holder of alice.acme",
      account: "GA65XN2ZYGIVGOK7UVO23P5A5TQCVVIBURN4OIR3LPVCBIZ4XTEKEPJV",
      secret: "SDEMO",
    },
  ],
};
const PAGES = [
  "/",
  "/name/alice.acme",
  "/namespace/acme",
  "/account/GA",
  "/claims",
  "/market",
  "/market/acme",
];

let database: TestDatabase;
let dev: App;
let serve: App;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
  dev = await buildApp({ config: testConfig(), db: database, redis: null, demoWallet: WALLET });
  serve = await buildApp({ config: testConfig(), db: database, redis: null });
});
afterAll(async () => {
  await dev?.close();
  await serve?.close();
  await database?.close();
});

describe("the Demo wallet", () => {
  it("is given by a dev app, and each of its page addresses names it for the page", async () => {
    const answer = await dev.inject({ url: "/dev/demo-wallet" });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.json()).toEqual(WALLET);
    const file = (await serve.inject({ url: "/" })).body;
    for (const url of PAGES) {
      const page = await dev.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"], url).toMatch(/^text\/html/);
      expect(page.headers["cache-control"], url).toBe("no-cache");
      expect(page.body, url).toContain(DEMO_WALLET_META);
      // The same page otherwise: only the tag was added.
      expect(page.body.replace(`  ${DEMO_WALLET_META}\n`, ""), url).toBe(file);
    }
  });

  it("is not there without the flag: 404 at its address, no tag on any page", async () => {
    const answer = await serve.inject({ url: "/dev/demo-wallet" });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ error: "not_found" });
    for (const url of PAGES) {
      const page = await serve.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain("namereg-demo-wallet");
    }
  });

  it("is no part of the API's description", async () => {
    for (const app of [dev, serve]) {
      const { paths } = (await app.inject({ url: "/openapi.json" })).json() as { paths: object };
      expect(Object.keys(paths).filter((path) => path.startsWith("/dev"))).toEqual([]);
    }
  });

  it("offers the demo's people under `namereg dev`, not the service's own escrow and billing accounts", () => {
    // The demo manifest's accounts, as the devnet's demo scenario reports them.
    const accounts = Object.fromEntries(
      Object.entries(demoAccounts()).map(([role, kp]) => [
        role,
        { publicKey: kp.publicKey(), secret: kp.secret() },
      ]),
    ) as DemoManifest["accounts"];
    const wallet = demoWalletOf({
      networkPassphrase: WALLET.networkPassphrase,
      demo: { accounts } as DemoManifest,
    });
    expect(wallet.networkPassphrase).toBe(WALLET.networkPassphrase);
    const roles = wallet.accounts.map((a) => a.role);
    expect(roles).toContain("alice");
    expect(roles).toContain("acme");
    expect(roles).not.toContain("escrow");
    expect(roles).not.toContain("billing");
    expect(wallet.accounts.find((a) => a.role === "alice")).toEqual({
      role: "alice",
      note: "holder of alice.acme (subname pay.alice.acme)",
      account: accounts.alice.publicKey,
      secret: accounts.alice.secret,
    });
  });
});
