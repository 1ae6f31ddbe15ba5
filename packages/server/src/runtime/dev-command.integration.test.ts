// `namereg dev` as a person runs it, a real process with its own devnet: MARKET_ENABLED=false keeps the demo's
// marketplace off (its routes answer 409 market_disabled, no escrow watcher, no listing seeded) while the rest of
// the demo, billing included, runs as usual; its devnet's RPC is the public RPC the web app checks claims against.
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signalGroup, spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { freePort } from "../../test/fixtures/free-port.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
/**
 * Start-up measured at 32 s on a loaded two-core machine (devnet, demo scenario, indexing, seeding); four times
 * that leaves room for a machine twice as slow under the same load.
 */
const START_BOUND_MS = 130_000;

describe("namereg dev with MARKET_ENABLED=false", () => {
  let child: ChildProcess | undefined;
  let api = "";
  let devnetUrl = "";
  const output: string[] = [];

  beforeAll(async () => {
    const [port, devnetPort] = [await freePort(), await freePort()];
    api = `http://127.0.0.1:${port}`;
    devnetUrl = `http://127.0.0.1:${devnetPort}`;
    child = spawnInGroup(process.execPath, [CLI, "dev"], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DEVNET_PORT: String(devnetPort),
        DEVNET_ADMIN_PORT: "0",
        DATABASE_URL: "memory://",
        MARKET_ENABLED: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const started = child;
    const ready = new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output.push(chunk.toString());
        if (output.join("").includes("namereg dev is running")) resolve();
      };
      started.stdout?.on("data", collect);
      started.stderr?.on("data", collect);
      started.once("exit", (code) => reject(new Error(`namereg dev exited (${code}): ${output.join("")}`)));
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`namereg dev did not start within ${START_BOUND_MS} ms: ${output.join("")}`)),
        START_BOUND_MS,
      );
    });
    try {
      await Promise.race([ready, late]);
    } catch (err) {
      signalGroup(started, "SIGKILL");
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }, START_BOUND_MS + 10_000);

  afterAll(async () => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    signalGroup(running, "SIGTERM");
    const timer = setTimeout(() => signalGroup(running, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }, 30_000);

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
    const printed = output.join("");
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
    expect(output.join("")).toContain(`${"alice".padEnd(10)} ${alice?.account}`);
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
