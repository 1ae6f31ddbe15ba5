// The several-machine topology of docs/operations.md "Topologies", each process on its own: `serve`, `index`,
// `escrow watch`, `billing watch` and `webhooks deliver` on one PostgreSQL database against a demo devnet. The
// demo's `forsale` is listed, bought and paid out through them alone; every process answers /health and /metrics
// on its METRICS_PORT (the API's /metrics moved there off the public port); the seller's webhook hears the sale.
import type { ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { demoKeypair, type NamingDevnet, startNamingDevnet, Wallet } from "@namereg/devnet";
import { namespaceNode, RegistryFns } from "@namereg/protocol";
import { Asset, Memo, Operation, rpc } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signalGroup, spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { freePort } from "../../test/fixtures/free-port.ts";
import { BACKSTOP_MS, waitForProgress } from "../../test/fixtures/progress.ts";
import { contractEnv } from "./commands/dev.ts";
import { devFeatures } from "./dev-features.ts";
import { signIn } from "./seed-demo.ts";
import { DEMO_LISTING, seedDemoListing } from "./seed-demo-market.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

interface Running {
  readonly name: string;
  readonly child: ChildProcess;
  readonly metrics: string;
  readonly log: () => { level: number; msg: string }[];
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv, metricsPort: number): Running {
  const child = spawnInGroup(process.execPath, [CLI, ...args], {
    env: { ...env, METRICS_PORT: String(metricsPort) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const log = () =>
    out
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
  return { name, child, metrics: `http://127.0.0.1:${metricsPort}`, log };
}

async function get(url: string): Promise<{ status: number; text: string }> {
  try {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  } catch {
    return { status: 0, text: "" };
  }
}

/** A metric's value in Prometheus text (the first sample whose name and labels start so). */
function sample(text: string, prefix: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("the split topology", { timeout: BACKSTOP_MS }, () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  let receiver: Server;
  const heard: { type: string }[] = [];
  const processes: Running[] = [];
  let api = "";
  beforeAll(async () => {
    [devnet, database] = await Promise.all([
      startNamingDevnet({ scenario: "demo", closeIntervalMs: 250 }),
      createTestDatabase("postgres"),
    ]);
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        heard.push(JSON.parse(body) as { type: string });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  }, 120_000);
  afterAll(async () => {
    for (const p of processes) signalGroup(p.child, "SIGKILL");
    receiver?.close();
    await devnet?.stop();
    await database?.close();
  });

  it("lists, sells and pays out forsale with every process on its own, each observable", async () => {
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: "info",
      DATABASE_URL: database.url,
      RPC_URL: devnet.rpcUrl,
      NETWORK_PASSPHRASE: devnet.networkPassphrase,
      ...contractEnv(devnet),
      ...devFeatures({}, devnet).env,
      SESSION_SECRET: "split-topology-session-secret-0123456789",
      HOME_DOMAIN: "names.example.com",
      PUBLIC_URL: api,
      PORT: String(port),
      ESCROW_POLL_MS: "250",
      BILLING_POLL_MS: "250",
      WEBHOOK_POLL_MS: "100",
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      INTENT_RATE_LIMIT_PER_MINUTE: "1000",
    };
    const roles: [string, string[]][] = [
      ["serve", ["serve"]],
      ["index", ["index"]],
      ["escrow watch", ["escrow", "watch"]],
      ["billing watch", ["billing", "watch"]],
      ["webhooks deliver", ["webhooks", "deliver"]],
    ];
    for (const [name, args] of roles) processes.push(start(name, args, env, await freePort()));
    const [serve, index, escrow, billing, deliverer] = processes as [
      Running,
      Running,
      Running,
      Running,
      Running,
    ];

    // Each long-running process answers on its METRICS_PORT; the API also on its own port.
    for (const p of processes) {
      await waitForProgress(
        async () => (await get(`${p.metrics}/health`)).status === 200,
        `${p.name}'s /health`,
      );
      expect(JSON.parse((await get(`${p.metrics}/health`)).text)).toEqual({ ok: true, service: "namereg" });
    }
    await waitForProgress(async () => (await get(`${api}/health`)).status === 200, "the API");
    // /metrics moved to the METRICS_PORT: the public port no longer serves it.
    expect((await get(`${api}/metrics`)).status).toBe(404);

    // The seller lists forsale through the API and pays the bond; the escrow watcher activates the listing.
    await waitForProgress(async () => {
      const s = (await (await fetch(`${api}/v1/status`)).json()) as {
        components: { name: string; state: string }[];
      };
      return s.components.some((c) => c.name === "Indexer" && c.state === "operational");
    }, "the indexer caught up");
    const seller = demoKeypair("seller");
    const token = await signIn({ apiUrl: api, devnet }, seller);
    const registered = await fetch(`${api}/console/webhooks`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "x-service-namespace": DEMO_LISTING.namespace,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        types: ["market.sold"],
      }),
    });
    expect(registered.status).toBe(201);
    await seedDemoListing({ apiUrl: api, devnet });
    const { listings } = (await (await fetch(`${api}/v1/market/listings`)).json()) as {
      listings: { id: string; namespace: string }[];
    };
    const listing = listings.find((l) => l.namespace === DEMO_LISTING.namespace);
    if (listing === undefined) throw new Error(`forsale is not listed: ${JSON.stringify(listings)}`);

    // The buyer's intent, deposit and acceptance; the seller's proposal.
    const buyer = demoKeypair("buyer");
    const wallet = new Wallet({ rpcUrl: devnet.rpcUrl, networkPassphrase: devnet.networkPassphrase });
    const intent = (await (
      await fetch(`${api}/v1/market/listings/${listing.id}/intent`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account: buyer.publicKey() }),
      })
    ).json()) as { pay: { to: string; amountXlm: string; memoHash: string } };
    const node = namespaceNode(DEMO_LISTING.namespace);
    await wallet.invoke(seller, devnet.contracts.registry, RegistryFns.propose_transfer, {
      node,
      to: buyer.publicKey(),
      expires: BigInt(devnet.chain.latest.closeTime) + 3600n,
    });
    await wallet.classic(
      buyer,
      Operation.payment({ destination: intent.pay.to, asset: Asset.native(), amount: intent.pay.amountXlm }),
      Memo.hash(intent.pay.memoHash),
    );
    const state = async () =>
      (await (await fetch(`${api}/v1/market/listings/${listing.id}/buyers/${buyer.publicKey()}`)).json()) as {
        deposit: { state: string };
        settlement: { sale?: { sellerPayout?: { state: string; txHash: string | null } } | null };
      };
    await waitForProgress(async () => (await state()).deposit.state === "funded", "the deposit funded");
    await wallet.invoke(buyer, devnet.contracts.registry, RegistryFns.accept_transfer, { node });
    await waitForProgress(
      async () => (await state()).settlement.sale?.sellerPayout?.state === "paid",
      "the seller paid out",
    );
    const payout = (await state()).settlement.sale?.sellerPayout;
    const sent = await new rpc.Server(devnet.rpcUrl, { allowHttp: true }).getTransaction(
      payout?.txHash ?? "",
    );
    expect(sent.status).toBe(rpc.Api.GetTransactionStatus.SUCCESS);
    await waitForProgress(() => heard.some((h) => h.type === "market.sold"), "the market.sold webhook");

    // Every component the processes run is up, as /v1/status reports them.
    const status = (await (await fetch(`${api}/v1/status`)).json()) as {
      components: { name: string; state: string }[];
    };
    expect(Object.fromEntries(status.components.map((c) => [c.name, c.state]))).toMatchObject({
      Indexer: "operational",
      "Billing watcher": "operational",
      "Escrow watcher": "operational",
      "Webhook deliverer": "operational",
    });

    // What each process counts itself, on its own /metrics, beside the figures read from the database.
    const scrape = async (p: Running) => (await get(`${p.metrics}/metrics`)).text;
    expect(sample(await scrape(index), "namereg_indexer_events_total")).toBeGreaterThan(0);
    expect(sample(await scrape(escrow), 'namereg_escrow_watcher{figure="parked_payouts"}')).toBe(0);
    expect(sample(await scrape(billing), 'namereg_billing_watcher{figure="retention_gap"}')).toBe(0);
    await waitForProgress(
      async () =>
        sample(await scrape(deliverer), 'namereg_webhook_attempts_total{outcome="delivered"}') === 1,
      "the deliverer's attempt counted",
    );
    expect(sample(await scrape(deliverer), "namereg_webhook_deliveries_pending")).toBe(0);
    expect(sample(await scrape(serve), "namereg_http_request_duration_seconds_count")).toBeGreaterThan(0);

    // The payout is in the escrow watcher's log at info; each request is one line of the API's log.
    expect(escrow.log()).toContainEqual(
      expect.objectContaining({ level: 30, msg: `escrow payout paid: seller to ${seller.publicKey()}` }),
    );
    const requests = serve.log().filter((l) => l.msg === "request completed" || l.msg === "incoming request");
    expect(requests.length).toBeGreaterThan(5);
    expect(requests.every((l) => l.msg === "request completed")).toBe(true);

    for (const p of processes) {
      const exited = new Promise<number | null>((r) => p.child.once("exit", (code) => r(code)));
      signalGroup(p.child, "SIGTERM");
      expect(await exited).toBe(0);
    }
  });
});
