// The topology suite's processes (suite.ts), brought up: the bulk devnet, a private PostgreSQL cluster (with a hot
// standby when asked), two `namereg index` processes (a writer, then a standby), and two `serve` replicas (two more
// reading the standby); returned once every replica serves and the bulk history is indexed. What it starts is put
// on the caller's `children` and `cleanup` as it goes, so that a failure half-way still stops all of it.
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { contractEnv } from "@namereg/server";
import {
  freePort,
  type PrivatePostgres,
  startPrivatePostgres,
  startPrivateStandby,
} from "@namereg/server/testing";
import { Redis } from "ioredis";
import { type ArchiveReader, archiveReader } from "./archive-reader.ts";
import { client, type HttpClient } from "./http-client.ts";
import { HOLDERS, NAMESPACES } from "./live-chain.ts";
import { type Child, startProcess } from "./processes.ts";
import type { StandbyOptions } from "./standby-checks.ts";
import { GaveUp, until, untilAsync } from "./waiting.ts";

export interface TopologyOptions {
  /** Bulk events on the chain before the processes start. */
  events: number;
  /** RATE_LIMIT_PER_MINUTE of the replicas. */
  rateLimit: number;
  /** WRITER_STALL_TIMEOUT_MS of the indexers. */
  stallTimeoutMs: number;
  redisUrl: string;
  /** SERVICE_NAME of every process: it prefixes the rate-limit keys in Redis (`<name>:ratelimit:<ip>`). */
  serviceName: string;
  standby?: StandbyOptions;
  log: (line: string) => void;
  /** Where what is started goes: killed, and cleaned up in reverse, by the caller. */
  children: Child[];
  cleanup: (() => Promise<unknown>)[];
}

export interface Topology {
  devnet: NamingDevnet;
  /** Bulk events on the chain, all indexed. */
  bulkEvents: number;
  cluster: PrivatePostgres;
  standby: PrivatePostgres | null;
  archive: ArchiveReader;
  /** Base URLs of the replicas reading the primary, and of those reading the standby (none without one). */
  replicas: string[];
  standbyReplicas: string[];
  /** The writer, then the standby. */
  indexers: Child[];
  spawnIndexer: (name: string) => Child;
  /** A client of 127.0.0.1, for the suite's own requests. */
  setup: HttpClient;
  /** From `namereg index` launched until it held the writer lock: this machine's cold start of a writer. */
  coldStartSeconds: number;
}

export async function startTopology(o: TopologyOptions): Promise<Topology> {
  const { log, children, cleanup, redisUrl, serviceName } = o;
  const devnet = await startNamingDevnet({
    scenario: "bulk",
    closeIntervalMs: 0,
    bulk: { namespaces: NAMESPACES, events: o.events, eventsPerLedger: 500, holders: HOLDERS },
  });
  cleanup.push(async () => devnet.stop());
  const bulkEvents = devnet.bulk?.events ?? o.events;
  const cluster = await startPrivatePostgres();
  cleanup.push(() => cluster.stop());
  // Made before anything is written: the standby replays the migrations and the whole history from the WAL.
  const made = performance.now();
  const standby = o.standby === undefined ? null : await startPrivateStandby(cluster, o.standby);
  if (standby !== null) {
    cleanup.push(() => standby.stop());
    log(`standby made (pg_basebackup -R) and started in ${((performance.now() - made) / 1000).toFixed(1)} s`);
  }
  cleanup.push(async () => {
    const redis = new Redis(redisUrl, { lazyConnect: true });
    try {
      await redis.connect();
      const keys = await redis.keys(`${serviceName}:*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });
  const archive = archiveReader(cluster.url);
  cleanup.push(() => archive.close());

  const baseEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: cluster.url,
    RPC_URL: devnet.rpcUrl,
    NETWORK_PASSPHRASE: devnet.networkPassphrase,
    ...contractEnv(devnet),
    SESSION_SECRET: "x".repeat(40),
    SERVICE_NAME: serviceName,
    REDIS_URL: redisUrl,
    RATE_LIMIT_PER_MINUTE: String(o.rateLimit),
    REDIS_TIMEOUT_MS: "1000", // the shared count is judged here, not the deadline (a late reply would blur it)
    WRITER_STALL_TIMEOUT_MS: String(o.stallTimeoutMs),
  };
  const spawnIndexer = (name: string) => {
    const c = startProcess(name, ["index"], { ...baseEnv, LOG_LEVEL: "info" });
    children.push(c);
    return c;
  };
  const ports = [await freePort(), await freePort()];
  const replicas = ports.map((port) => `http://127.0.0.1:${port}`);
  const standbyPorts = standby === null ? [] : [await freePort(), await freePort()];
  const standbyReplicas = standbyPorts.map((port) => `http://127.0.0.1:${port}`);

  // 1. The topology: a writer, a standby, two replicas; the bulk history indexed.
  const spawned = performance.now();
  const indexers = [spawnIndexer("index-a")];
  await until(() => indexers[0]?.role() === "writer", "index-a to hold the writer lock");
  const coldStartSeconds = (performance.now() - spawned) / 1000;
  indexers.push(spawnIndexer("index-b"));
  await until(() => indexers[1]?.role() === "standby", "index-b to wait as a standby");
  const serving: [name: string, port: number, readUrl: string | null][] = [
    ...ports.map((port, i) => [`serve-${i + 1}`, port, null] as [string, number, null]),
    ...standbyPorts.map(
      (port, i) =>
        [`serve-on-standby-${i + 1}`, port, standby?.url ?? null] as [string, number, string | null],
    ),
  ];
  for (const [name, port, readUrl] of serving)
    children.push(
      startProcess(name, ["serve"], {
        ...baseEnv,
        ...(readUrl === null ? {} : { DATABASE_READ_URL: readUrl }),
        LOG_LEVEL: "warn",
        PORT: String(port),
        HOME_DOMAIN: "names.example.test",
      }),
    );
  const setup = client("127.0.0.1");
  for (const [name, port] of serving) {
    const url = `http://127.0.0.1:${port}`;
    await untilAsync(async () => {
      const c = children.find((c) => c.name === name);
      if (c?.child.exitCode !== null) throw new GaveUp("it exited");
      return (await setup.get(`${url}/health`)).status === 200;
    }, `${url} to serve`).catch((err: Error) => {
      throw new Error(`${err.message}: ${children.find((c) => c.name === name)?.tail()}`);
    });
  }
  log(`replicas serving after ${((performance.now() - spawned) / 1000).toFixed(1)} s`);
  await untilAsync(async () => (await archive.count()) >= bulkEvents, "the bulk history to be indexed");
  log(
    `topology up: 2 indexers, 2 replicas (${replicas.join(", ")})${standby === null ? "" : `, a hot standby applying ${o.standby?.applyDelayMs} ms late and 2 replicas reading it (${standbyReplicas.join(", ")})`}, ${bulkEvents} bulk events indexed`,
  );
  return {
    devnet,
    bulkEvents,
    cluster,
    standby,
    archive,
    replicas,
    standbyReplicas,
    indexers,
    spawnIndexer,
    setup,
    coldStartSeconds,
  };
}
