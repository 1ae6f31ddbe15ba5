import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  DEMO_ROLE_NOTES,
  type DemoRole,
  describeDevnet,
  type NamingDevnet,
  startNamingDevnet,
} from "@namereg/devnet";
import type { DemoWallet } from "../../api/plugins/demo-wallet.ts";
import { redactUrl } from "../../config/database-url.ts";
import type { Env } from "../../config/index.ts";
import { DataDirInUseError, dataDirHolder } from "../../db/data-dir-claim.ts";
import { openDatabase } from "../../db/database.ts";
import { mirrorOf } from "../../indexer/chain-identity.ts";
import type { CommandIo } from "../../process/command-io.ts";
import { type DevFeatures, devFeatures } from "../dev-features.ts";
import { seedDemo } from "../seed-demo.ts";
import { seedDemoBilling } from "../seed-demo-billing.ts";
import { seedDemoListing } from "../seed-demo-market.ts";
import { startCommand } from "./start.ts";

/**
 * Development: a devnet with the demo scenario, then API + indexer on the embedded database. The devnet lives
 * in memory, so the database starts fresh on every run.
 */
export async function devCommand(io: CommandIo): Promise<number> {
  const { env } = io;
  const port = Number(env.PORT ?? 8080);
  const devnetPort = Number(env.DEVNET_PORT ?? 8000);
  const dataDir = env.DATA_DIR ?? "./data";
  if (env.DATABASE_URL === undefined) {
    // Never wipe the database of a running process (another `namereg dev` on this DATA_DIR).
    const holder = await dataDirHolder(join(dataDir, "pglite"));
    if (holder !== null) throw new DataDirInUseError(join(dataDir, "pglite"), holder);
    if (existsSync(join(dataDir, "pglite")))
      io.err(
        `namereg dev: starting clean: ${join(dataDir, "pglite")} is emptied on every run, since the devnet is new each time`,
      );
    await rm(join(dataDir, "pglite"), { recursive: true, force: true });
  } else if (env.DATABASE_URL !== "memory://") {
    await refuseAMirror(env.DATABASE_URL);
  }
  // Fault injection stays off the public RPC port: its own listener on loopback (docs/operations.md, The devnet).
  const devnetAdminPort = Number(env.DEVNET_ADMIN_PORT ?? 8001);
  const devnet = await startNamingDevnet({
    port: devnetPort,
    adminPort: devnetAdminPort,
    scenario: "demo",
    closeIntervalMs: closeIntervalOf(env.DEVNET_CLOSE_INTERVAL_MS),
  });
  const features = devFeatures(env, devnet);
  const devEnv: Env = {
    ...env,
    PORT: String(port),
    // What the stellar.toml names as the federation and auth servers: the address this process listens on, so
    // a wallet pointed at the local service reaches it (the home-domain default has no port).
    PUBLIC_URL: env.PUBLIC_URL ?? `http://${reachableHost(env.HOST)}:${port}`,
    DATA_DIR: dataDir,
    RPC_URL: devnet.rpcUrl,
    // What the web page checks an announcement against from the browser (the devnet answers CORS); a developer
    // opening the page from another machine names a URL that machine reaches.
    PUBLIC_RPC_URL: env.PUBLIC_RPC_URL ?? devnet.rpcUrl,
    NETWORK_PASSPHRASE: devnet.networkPassphrase,
    LOG_LEVEL: env.LOG_LEVEL ?? "warn",
    // A developer's receiver is on this machine, over plain http (docs/webhooks.md); an explicit false stays.
    WEBHOOK_ALLOW_HTTP: env.WEBHOOK_ALLOW_HTTP ?? "true",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? "true",
    ...contractEnv(devnet),
    ...features.env,
  };
  try {
    return await startCommand(
      { ...io, env: devEnv },
      "dev",
      async (url) => {
        // The off-chain demo state (namespace display names and logos) goes in as an owner would put it: a
        // SEP-10 session per owner and the console route.
        try {
          await seedDemo({ apiUrl: url, devnet });
        } catch (err) {
          io.err(
            `namereg dev: seeding the demo profiles failed (${err instanceof Error ? err.message : err})`,
          );
        }
        try {
          if (features.market) await seedDemoListing({ apiUrl: url, devnet });
        } catch (err) {
          io.err(`namereg dev: listing forsale failed (${err instanceof Error ? err.message : err})`);
        }
        try {
          if (features.billing) await seedDemoBilling({ apiUrl: url, devnet });
        } catch (err) {
          io.err(
            `namereg dev: paying the demo subscriptions failed (${err instanceof Error ? err.message : err})`,
          );
        }
        io.out(banner(url, devnet, features, env));
      },
      { demoWallet: demoWalletOf(devnet) },
    );
  } finally {
    await devnet.stop();
  }
}

/**
 * A ledger a second, as on the network, unless DEVNET_CLOSE_INTERVAL_MS says otherwise: the browser tests close one
 * every 250 ms, which shortens every wait for a transaction to be included and indexed.
 */
function closeIntervalOf(value: string | undefined): number {
  if (value === undefined) return 1000;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 50 || ms > 60_000)
    throw new Error(
      `DEVNET_CLOSE_INTERVAL_MS is a whole number of milliseconds from 50 to 60000, not "${value}"`,
    );
  return ms;
}

/**
 * A database named by DATABASE_URL that already holds a mirror is refused: dev's devnet is a new chain on every
 * run, and indexing it on top of another chain's rows would mix both (docs/operations.md "A different or reset
 * chain"). Dev never empties a database it was pointed at; the operator does, or names an empty one.
 */
async function refuseAMirror(url: string): Promise<void> {
  const database = await openDatabase({ url });
  try {
    await database.migrate();
    const mirror = await mirrorOf(database.db);
    if (mirror === null) return;
    throw new Error(
      `DATABASE_URL (${redactUrl(url)}) already holds a mirror (up to ledger ${mirror.processedLedger ?? "?"}` +
        `${mirror.passphrase === null ? "" : ` of "${mirror.passphrase}"`}), and dev starts a new devnet, a ` +
        "different chain, on every run. Give dev an empty database (e.g. `dropdb <name> && createdb <name>`, or " +
        "a new database name), or leave DATABASE_URL unset to use DATA_DIR, which dev empties itself.",
    );
  } finally {
    await database.close();
  }
}

/**
 * The accounts the web app's Demo wallet offers: the demo's people, whose keys the banner prints. The escrow and
 * billing accounts are the service's own (dev signs payouts with the escrow's key), not someone to act as.
 */
export function demoWalletOf(devnet: Pick<NamingDevnet, "demo" | "networkPassphrase">): DemoWallet {
  const accounts = Object.entries(devnet.demo?.accounts ?? {})
    .filter(([role]) => role !== "escrow" && role !== "billing")
    .map(([role, keys]) => ({
      role,
      note: DEMO_ROLE_NOTES[role as DemoRole] ?? "",
      account: keys.publicKey,
      secret: keys.secret,
    }));
  return { networkPassphrase: devnet.networkPassphrase, accounts };
}

/** The environment that points namereg at a naming devnet's contracts. */
export function contractEnv(devnet: NamingDevnet): Env {
  const start = String(devnet.deploymentLedger);
  const { registry, allocator, lookup, primary } = devnet.contracts;
  return {
    REGISTRY_ID: registry,
    ALLOCATOR_ID: allocator,
    LOOKUP_ID: lookup,
    PRIMARY_ID: primary,
    REGISTRY_START_LEDGER: start,
    ALLOCATOR_START_LEDGER: start,
    LOOKUP_START_LEDGER: start,
    PRIMARY_START_LEDGER: start,
  };
}

/** A host a local client can connect to: a wildcard address is not one. */
function reachableHost(host: string | undefined): string {
  if (host === undefined || host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function banner(apiUrl: string, devnet: NamingDevnet, features: DevFeatures, env: Env): string {
  const api = apiUrl.replace("[::1]", "localhost");
  // With METRICS_PORT, /metrics moved off the API's port (docs/operations.md "Metrics").
  const metrics =
    env.METRICS_PORT === undefined || env.METRICS_PORT === ""
      ? `${api}/metrics`
      : `http://${reachableHost(env.METRICS_HOST ?? env.HOST)}:${env.METRICS_PORT}/metrics`;
  return [
    "",
    `namereg dev is running`,
    `API                 ${api}   (status: ${api}/v1/status)`,
    `web app             ${api}/`,
    `API reference       ${api}/docs/   (OpenAPI 3.1: ${api}/openapi.json)`,
    `metrics             ${metrics}`,
    describeDevnet(devnet),
    "",
    "try:",
    `  curl ${api}/v1/status`,
    `  curl ${api}/v1/resolve/acme/alice`,
    // Quoted: a `?` unquoted is a glob to zsh ("no matches found").
    `  curl '${api}/v1/events?namespace=acme'`,
    ...(features.market ? [`  curl ${api}/v1/market/listings`] : []),
    "",
    "Ctrl-C stops everything.",
  ].join("\n");
}
