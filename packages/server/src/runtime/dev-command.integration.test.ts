// `namereg dev` as a person runs it, a real process with its own devnet: MARKET_ENABLED=false keeps the demo's
// marketplace off (its routes answer 409 market_disabled, no escrow watcher, no listing seeded) while the rest of
// the demo, billing included, runs as usual; its devnet's RPC is the public RPC the web app checks claims against.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_START_BOUND_MS, type DevProcess, startDevProcess } from "../../test/fixtures/dev-process.ts";

describe("namereg dev with MARKET_ENABLED=false", () => {
  let dev: DevProcess;
  let api = "";
  let devnetUrl = "";

  beforeAll(async () => {
    dev = await startDevProcess({ MARKET_ENABLED: "false" });
    api = dev.base;
    devnetUrl = dev.rpcUrl;
  }, DEV_START_BOUND_MS + 10_000);

  afterAll(() => dev?.stop(), 30_000);

  it("answers 409 market_disabled on the market routes and runs no escrow watcher", async () => {
    const get = async (path: string) => {
      const response = await fetch(api + path);
      return { status: response.status, body: await response.json() };
    };
    expect(await get("/v1/market/listings")).toEqual({ status: 409, body: { error: "market_disabled" } });
    expect(await get(`/v1/market/history/${"a".repeat(64)}`)).toEqual({
      status: 409,
      body: { error: "market_disabled" },
    });
    const status = (await get("/v1/status")).body as { components: { name: string }[] };
    expect(status.components.map((c) => c.name)).toEqual([
      "Database",
      "the service RPC",
      "Indexer",
      "Billing watcher",
    ]);
    // No listing was seeded, and the banner does not offer the listings.
    const printed = dev.output();
    expect(printed).not.toContain("listing forsale failed");
    expect(printed).not.toContain("/v1/market/listings");
  });

  it("offers the web app's Demo wallet: the demo accounts at /dev/demo-wallet, and the page marked for it", async () => {
    const demo = await fetch(`${api}/dev/demo-wallet`);
    expect(demo.status).toBe(200);
    const body = (await demo.json()) as {
      networkPassphrase: string;
      accounts: { role: string; account: string }[];
    };
    expect(body.networkPassphrase).toBe("Standalone Network ; February 2017");
    const alice = body.accounts.find((a) => a.role === "alice");
    // The same account the banner prints for alice.
    expect(alice).toBeDefined();
    expect(dev.output()).toContain(`${"alice".padEnd(10)} ${alice?.account}`);
    const page = await (await fetch(`${api}/name/alice.acme`)).text();
    expect(page).toContain('<meta name="namereg-demo-wallet" content="/dev/demo-wallet">');
  });

  it("names its devnet's RPC as the public RPC, which answers a page from the app's origin (CORS)", async () => {
    const network = await fetch(`${api}/v1/network`);
    expect(network.status).toBe(200);
    expect(await network.json()).toEqual({
      network: "Standalone Network ; February 2017",
      publicRpcUrl: devnetUrl,
    });
    const preflight = await fetch(devnetUrl, {
      method: "OPTIONS",
      headers: { origin: api, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});
