// The `namereg` subcommands: each loads the configuration once for its role, opens what it needs, and shuts
// down cleanly on SIGINT/SIGTERM (in-flight requests drain, the indexer finishes its batch, the lock is freed).

import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describeDevnet, type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { type Logger, pino } from "pino";
import { coalescedHead } from "../api/chain-head.ts";
import { type App, buildApp } from "../api/index.ts";
import { loggerOptions } from "../api/logger.ts";
import { runBillingWatcherProcess } from "../billing/watcher-process.ts";
import { ChainClient } from "../chain/chain-client.ts";
import { RpcClient } from "../chain/rpc-client.ts";
import { type Config, describeConfig, type Env, loadConfigOrExit, type Role } from "../config/index.ts";
import { DataDirInUseError, dataDirHolder } from "../db/data-dir-claim.ts";
import { type Database, openDatabase } from "../db/index.ts";
import { waitForReplicaSchema } from "../db/replica-schema.ts";
import { runEscrowWatcherProcess } from "../escrow/watcher-process.ts";
import { ServiceMetrics } from "../metrics/service-metrics.ts";
import { type DevFeatures, devFeatures } from "./dev-features.ts";
import { runIndexerProcess } from "./indexer-process.ts";
import { seedDemo } from "./seed-demo.ts";
import { seedDemoBilling } from "./seed-demo-billing.ts";
import { seedDemoListing } from "./seed-demo-market.ts";

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
}

export async function openRuntime(
  role: Role,
  env: Env = process.env,
  command = `namereg ${role}`,
): Promise<Runtime> {
  const config = loadConfigOrExit(env, { role, command });
  const logger = pino(loggerOptions(config) as object);
  logger.info({ config: describeConfig(config) }, `${command} starting`);
  for (const warning of config.warnings) logger.warn(warning);
  const database = await openDatabase({
    url: config.database.url,
    readUrl: config.database.readUrl,
    statementTimeoutMs: config.database.statementTimeoutMs,
  });
  await database.migrate();
  return { config, logger, database };
}

export async function startApi(rt: Runtime, metrics?: ServiceMetrics): Promise<{ app: App; url: string }> {
  const { config } = rt;
  const rpc =
    config.chain.rpcUrl === null ? null : new RpcClient(config.chain.rpcUrl, { retries: 0, timeoutMs: 2000 });
  const { rpcUrl, networkPassphrase } = config.chain;
  const app = await buildApp({
    config,
    db: rt.database,
    logger: rt.logger,
    ...(metrics === undefined ? {} : { metrics }),
    ...(rpc === null ? {} : { chain: coalescedHead({ head: () => rpc.getLatestLedger() }) }),
    ...(rpcUrl === null || networkPassphrase === null
      ? {}
      : { chainClient: new ChainClient(rpcUrl, networkPassphrase) }),
  });
  const url = await app.listen({ port: config.port, host: config.host });
  return { app, url };
}

/** Resolves on the first SIGINT or SIGTERM, or when the npm process that started this one exits. */
export function untilSignal(): { signal: AbortSignal; done: Promise<string> } {
  const controller = new AbortController();
  const done = new Promise<string>((resolve) => {
    let watch: NodeJS.Timeout | undefined;
    const on = (name: string) => () => {
      clearInterval(watch);
      controller.abort();
      resolve(name);
    };
    process.once("SIGINT", on("SIGINT"));
    process.once("SIGTERM", on("SIGTERM"));
    // Started through `npx namereg …` or `npm start`, this process runs under npm (through `sh -c`), and npm does
    // not pass a SIGTERM on: a supervisor stopping npm would leave the API or the writer running unseen, holding
    // the writer lock. The launcher gone, shut down as on SIGTERM.
    const launcher = launcherOf(process.ppid);
    watch = setInterval(() => {
      if (launcherGone(launcher)) on("launcher exited")();
    }, 1000);
    watch.unref();
  });
  return { signal: controller.signal, done };
}

/** This process's parent and, when that is a shell, the shell's parent (npm, which ran `sh -c namereg …`). */
interface Launcher {
  readonly parent: number;
  readonly grandparent: number | null;
}

function launcherOf(parent: number): Launcher {
  const shell = /^(sh|dash|bash)$/.test(procField(parent, "comm") ?? "");
  return { parent, grandparent: shell ? parentOf(parent) : null };
}

/** Re-parented, or our shell was: whoever started us has exited. */
function launcherGone({ parent, grandparent }: Launcher): boolean {
  if (process.ppid !== parent) return true;
  return grandparent !== null && parentOf(parent) !== grandparent;
}

/** The parent pid of `pid` from /proc (Linux); null where /proc cannot tell, which never reads as a change. */
function parentOf(pid: number): number | null {
  const stat = procField(pid, "stat");
  if (stat === null) return null;
  // The command name may hold spaces and parentheses; the fields after its closing ')' are fixed: state, ppid.
  const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

function procField(pid: number, file: "stat" | "comm"): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8").trim();
  } catch {
    return null;
  }
}

export async function migrateCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("migrate", env);
  rt.logger.info("migrations applied");
  await rt.database.close();
}

export async function serveCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("serve", env);
  const { signal, done } = untilSignal();
  // Not listening (so not ready, not even /health) until the read replica can serve this code's queries.
  if (!(await waitForReplicaSchema(rt.database, { log: rt.logger, signal }))) {
    await rt.database.close();
    return;
  }
  const { app, url } = await startApi(rt);
  rt.logger.info({ url }, "API listening");
  rt.logger.info({ signal: await done }, "shutting down");
  await app.close();
  await rt.database.close();
}

export async function indexCommand(env?: Env): Promise<void> {
  const rt = await openRuntime("index", env);
  const { signal, done } = untilSignal();
  void done.then((name) => rt.logger.info({ signal: name }, "shutting down"));
  await runIndexerProcess({ config: rt.config, database: rt.database, logger: rt.logger, signal });
  await rt.database.close();
}

/** API and indexer in one process (the single-machine deployment). */
export async function startCommand(
  env?: Env,
  role: Role = "start",
  onReady?: (url: string) => void | Promise<void>,
): Promise<void> {
  const rt = await openRuntime(role, env);
  const { signal, done } = untilSignal();
  if (!(await waitForReplicaSchema(rt.database, { log: rt.logger, signal }))) {
    await rt.database.close();
    return;
  }
  // One registry for the process: the API serves what the in-process indexer counts.
  const metrics = new ServiceMetrics();
  const { app, url } = await startApi(rt, metrics);
  rt.logger.info({ url }, "API listening");
  const indexing = runIndexerProcess({
    config: rt.config,
    database: rt.database,
    logger: rt.logger,
    signal,
    onBatch: (info) => {
      metrics.indexerEvents.inc(info.events);
      metrics.indexerBatchDuration.observe(info.commitMs / 1000);
      if (info.deadLettered > 0) metrics.indexerDeadLettered.inc(info.deadLettered);
    },
  });
  const escrow = runEscrowWatcherProcess({
    config: rt.config,
    database: rt.database,
    logger: rt.logger,
    signal,
  });
  const billing = runBillingWatcherProcess({
    config: rt.config,
    database: rt.database,
    logger: rt.logger,
    signal,
  });
  // Seeding reads on-chain ownership through the API, so it runs once the indexer is on its way.
  await onReady?.(url);
  rt.logger.info({ signal: await done }, "shutting down");
  await indexing;
  await escrow;
  await billing;
  await app.close();
  await rt.database.close();
}

/**
 * Development: a devnet with the demo scenario, then API + indexer on the embedded database. The devnet lives
 * in memory, so the database starts fresh on every run.
 */
export async function devCommand(env: Env = process.env): Promise<void> {
  const port = Number(env.PORT ?? 8080);
  const devnetPort = Number(env.DEVNET_PORT ?? 8000);
  const dataDir = env.DATA_DIR ?? "./data";
  if (env.DATABASE_URL === undefined) {
    // Never wipe the database of a running process (another `namereg dev` on this DATA_DIR).
    const holder = await dataDirHolder(join(dataDir, "pglite"));
    if (holder !== null) throw new DataDirInUseError(join(dataDir, "pglite"), holder);
    await rm(join(dataDir, "pglite"), { recursive: true, force: true });
  }
  // Fault injection stays off the public RPC port: its own listener on loopback (docs/operations.md, The devnet).
  const devnetAdminPort = Number(env.DEVNET_ADMIN_PORT ?? 8001);
  const devnet = await startNamingDevnet({
    port: devnetPort,
    adminPort: devnetAdminPort,
    scenario: "demo",
    closeIntervalMs: 1000,
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
    NETWORK_PASSPHRASE: devnet.networkPassphrase,
    LOG_LEVEL: env.LOG_LEVEL ?? "warn",
    ...contractEnv(devnet),
    ...features.env,
  };
  try {
    await startCommand(devEnv, "dev", async (url) => {
      // The off-chain demo state (namespace display names and logos) goes in as an owner would put it: a
      // SEP-10 session per owner and the console route.
      try {
        await seedDemo({ apiUrl: url, devnet });
      } catch (err) {
        console.error(
          `namereg dev: seeding the demo profiles failed (${err instanceof Error ? err.message : err})`,
        );
      }
      try {
        if (features.market) await seedDemoListing({ apiUrl: url, devnet });
      } catch (err) {
        console.error(`namereg dev: listing forsale failed (${err instanceof Error ? err.message : err})`);
      }
      try {
        if (features.billing) await seedDemoBilling({ apiUrl: url, devnet });
      } catch (err) {
        console.error(
          `namereg dev: paying the demo subscriptions failed (${err instanceof Error ? err.message : err})`,
        );
      }
      console.log(banner(url, devnet, features));
    });
  } finally {
    await devnet.stop();
  }
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

function banner(apiUrl: string, devnet: NamingDevnet, features: DevFeatures): string {
  const api = apiUrl.replace("[::1]", "localhost");
  return [
    "",
    `namereg dev is running`,
    `API                 ${api}   (status: ${api}/v1/status)`,
    `web page            ${api}/`,
    `API reference       ${api}/docs/   (OpenAPI 3.1: ${api}/openapi.json)`,
    `metrics             ${api}/metrics`,
    describeDevnet(devnet),
    "",
    "try:",
    `  curl ${api}/v1/status`,
    `  curl ${api}/v1/resolve/acme/alice`,
    `  curl ${api}/v1/events?namespace=acme`,
    ...(features.market ? [`  curl ${api}/v1/market/listings`] : []),
    "",
    "Ctrl-C stops everything.",
  ].join("\n");
}
