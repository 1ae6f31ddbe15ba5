// The failover suite (issue 37 item 8): the deployment docs/operations.md "High availability" describes — two
// PostgreSQL members under Patroni, etcd, HAProxy (cluster.ts) — under `namereg start` (DATABASE_URL → HAProxy's
// primary port, DATABASE_READ_URL → its replica port) on a demo devnet in process. While a wallet changes text
// records, readers ask resolve (a name resolved before the loss), a name and /v1/status, a stream client follows the
// changes and a webhook endpoint hears them (traffic.ts), the leader's machine is lost: its Patroni and its
// postmaster with every backend SIGKILLed. Measured: the time to a new leader, indexing resumed after it (the first
// change committed after the kill), answers per status code. Then the old member is started again and must rejoin
// as a replica, and /v1/status must say every component is operational. Checked: every change archived once, the
// stream and the webhooks carrying each once (by id), readers only 200 or 503, the pre-cached name always 200.
// `bench/failover/run.ts` runs it and prints the report.
import type { ChildProcess } from "node:child_process";
import { type NamingDevnet, startNamingDevnet } from "@namereg/devnet";
import { contractEnv } from "@namereg/server";
import { signalGroup, spawnInGroup } from "@namereg/server/testing";
import pg from "pg";
import { fetchOk, type HaCluster, isStreaming, startHaCluster, until } from "./cluster.ts";
import { sleep, startReaders, startStream, startWebhookReceiver, startWriter } from "./traffic.ts";

const CLI = new URL(import.meta.resolve("@namereg/server/cli")).pathname;
const PRECACHED = "/v1/resolve/acme/alice";
const READ_PATHS = [PRECACHED, "/v1/names/acme/bob", "/v1/status"];

export interface FailoverOptions {
  /** Port of namereg's API; the devnet's RPC takes the next one. */
  readonly apiPort?: number;
  /** Seconds of traffic before the loss, and after the new leader before the writer stops. */
  readonly beforeSeconds?: number;
  readonly afterSeconds?: number;
  readonly readers?: number;
  /** Longest indexing may take to resume after Patroni has a new leader (default 10 s). */
  readonly resumeBoundSeconds?: number;
  readonly log?: (line: string) => void;
}

export interface FailoverResult {
  readonly killed: string;
  readonly newLeader: string | null;
  /** SIGKILL → Patroni names a new leader. */
  readonly newLeaderSeconds: number | null;
  /** New leader → the first change committed after the kill. */
  readonly resumedSeconds: number | null;
  /** Restart of the old member → it streams as a replica. */
  readonly rejoinSeconds: number | null;
  readonly rejoinedAs: string | null;
  readonly written: number;
  /** Written changes archived: rows in the outbox per key (each must be 1) and events in the archive. */
  readonly archivedOnce: number;
  readonly archivedTwice: number;
  readonly streamReceived: number;
  readonly streamDuplicates: number;
  readonly streamConnections: number;
  readonly webhookIds: number;
  readonly webhookDuplicates: number;
  readonly routes: Record<string, Record<string, number>>;
  readonly bad: string[];
  /** Seconds from the kill with 503s. */
  readonly unavailableSeconds: number;
  readonly finalStatus: Record<string, string>;
  /** Resolves answered with the last answer while the database was away (`/metrics`, result="stale"). */
  readonly staleAnswers: number;
  readonly failures: string[];
  readonly ok: boolean;
}

export async function runFailoverSuite(o: FailoverOptions = {}): Promise<FailoverResult> {
  const log = o.log ?? (() => undefined);
  const apiPort = o.apiPort ?? 18300;
  const base = `http://127.0.0.1:${apiPort}`;
  const stops: (() => Promise<unknown>)[] = [];
  const failures: string[] = [];
  let cluster: HaCluster | null = null;
  let app: ChildProcess | null = null;
  let output = "";
  try {
    cluster = await startHaCluster({ log });
    const c = cluster;
    stops.push(() => c.stop());
    const devnet: NamingDevnet = await startNamingDevnet({
      scenario: "demo",
      closeIntervalMs: 0,
      port: apiPort + 1,
    });
    stops.push(async () => devnet.stop());
    devnet.setCloseInterval(1000);
    const receiver = await startWebhookReceiver();
    stops.push(() => receiver.close());

    app = spawnInGroup(process.execPath, [CLI, "start"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH,
        PORT: String(apiPort),
        DATABASE_URL: c.primaryUrl,
        DATABASE_READ_URL: c.replicaUrl,
        RPC_URL: devnet.rpcUrl,
        NETWORK_PASSPHRASE: devnet.networkPassphrase,
        ...contractEnv(devnet),
        SESSION_SECRET: "x".repeat(40),
        HOME_DOMAIN: "names.example.test",
        RATE_LIMIT_PER_MINUTE: "1000000",
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 20 }, () => "500ms").join(","),
        WEBHOOK_POLL_MS: "200",
        LOG_LEVEL: "info",
      },
    });
    const started = app;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-100_000);
    };
    app.stdout?.on("data", keep);
    app.stderr?.on("data", keep);
    stops.push(async () => signalGroup(started, "SIGKILL"));
    await until(
      async () => started.exitCode !== null || (await fetchOk(`${base}/v1/names/acme/alice`)) !== null,
      "namereg to serve the demo",
      180_000,
    );
    if (started.exitCode !== null) throw new Error(`namereg start exited: ${output.slice(-3000)}`);
    log("namereg start is serving the indexed demo through HAProxy");

    const sql = new pg.Pool({ connectionString: c.primaryUrl, max: 2, connectionTimeoutMillis: 2000 });
    sql.on("error", () => undefined);
    stops.push(() => sql.end());
    const head = Number((await sql.query("select coalesce(max(id), 0) as id from change_outbox")).rows[0].id);
    await sql.query(
      `insert into webhook_endpoints (id, namespace, url, types, secret, created_at, cursor)
       values ('ep_failover', 'acme', $1, '["record.text_changed"]', $2, now(), $3)`,
      [receiver.url, `whsec_${Buffer.from("failover-secret-0123456789abcdef").toString("base64")}`, head],
    );

    // The name every reader expects: resolved (so cached) before anything is lost.
    const precached = await fetchOk(base + PRECACHED);
    if (precached === null) throw new Error(`${PRECACHED} did not answer 200 before the loss`);
    const stream = startStream(base, "record.text_changed", head);
    stops.push(async () => stream.stop());
    const readers = startReaders(base, READ_PATHS, o.readers ?? 4, new Map([[PRECACHED, precached]]));
    const writer = startWriter(devnet);
    await sleep((o.beforeSeconds ?? 5) * 1000);

    // The leader's machine lost.
    const killed = (await c.leader()) ?? "pg1";
    const killedAt = Date.now();
    await c.kill(killed);
    log(`${killed} lost (Patroni and postmaster SIGKILLed) after ${writer.written.length} changes`);
    let newLeader: string | null = null;
    await until(
      async () => {
        newLeader = await c.leader();
        return newLeader !== null && newLeader !== killed;
      },
      "a new leader",
      120_000,
    ).catch(() => undefined);
    const newLeaderAt = Date.now();
    const newLeaderSeconds = newLeader === null ? null : (newLeaderAt - killedAt) / 1000;
    log(`new leader ${newLeader ?? "none"} after ${newLeaderSeconds ?? "–"} s`);
    await sleep((o.afterSeconds ?? 5) * 1000);
    await writer.stop();
    const written = [...writer.written];
    log(`writer stopped after ${written.length} changes (${writer.errors.length} errors)`);

    // The old leader comes back as a replica.
    const restartedAt = performance.now();
    await c.restart(killed);
    let rejoinedAs: string | null = null;
    await until(
      async () => {
        const me = (await c.members()).find((m) => m.name === killed);
        rejoinedAs = me?.role ?? null;
        return me !== undefined && me.role !== "leader" && isStreaming(me);
      },
      `${killed} to rejoin`,
      120_000,
    ).catch(() => failures.push(`${killed} did not rejoin: ${c.tail(killed)}`));
    const rejoinSeconds = rejoinedAs === null ? null : (performance.now() - restartedAt) / 1000;
    log(`${killed} rejoined as ${rejoinedAs ?? "nothing"} after ${rejoinSeconds?.toFixed(1) ?? "–"} s`);

    // Everything written reaches the archive, the stream and the webhook endpoint.
    const countKeys = async () =>
      Number(
        (
          await sql.query(
            `select count(distinct data->>'key') as n from change_outbox
             where type = 'record.text_changed' and name = 'bob.acme' and id > $1`,
            [head],
          )
        ).rows[0].n,
      );
    await until(async () => (await countKeys()) >= written.length, "every change archived", 60_000).catch(
      () => failures.push(`archive: not every change archived (${output.slice(-1500)})`),
    );
    const outbox = await sql.query<{ key: string; n: string; first: Date }>(
      `select data->>'key' as key, count(*) as n, min(created_at) as first from change_outbox
       where type = 'record.text_changed' and name = 'bob.acme' and id > $1 group by 1`,
      [head],
    );
    const perKey = new Map(outbox.rows.map((r) => [r.key, Number(r.n)]));
    const firstAfter = outbox.rows
      .map((r) => r.first.getTime())
      .filter((t) => t > killedAt)
      .sort((a, b) => a - b)[0];
    const resumedSeconds =
      firstAfter === undefined || newLeader === null ? null : (firstAfter - newLeaderAt) / 1000;
    await until(
      async () => new Set(stream.ids).size >= written.length,
      "the stream to carry every change",
      60_000,
    ).catch(() => undefined);
    await until(
      async () => new Set(receiver.deliveries.map((d) => d.id)).size >= written.length,
      "the webhooks to carry every change",
      60_000,
    ).catch(() => undefined);

    let finalStatus: Record<string, string> = {};
    await until(
      async () => {
        const body = await fetchOk(`${base}/v1/status`);
        if (body === null) return false;
        const components = (JSON.parse(body) as { components: { name: string; state: string }[] }).components;
        finalStatus = Object.fromEntries(components.map((x) => [x.name, x.state]));
        return components.every((x) => x.state === "operational");
      },
      "/v1/status all operational",
      60_000,
    ).catch(() => failures.push(`status not all operational: ${JSON.stringify(finalStatus)}`));
    await readers.stop();
    stream.stop();
    // Scraped twice: the counter catches up with the cache's own count during a scrape, after writing it out.
    await fetchOk(`${base}/metrics`);
    const metrics = (await fetchOk(`${base}/metrics`)) ?? "";
    const staleAnswers = Number(
      /namereg_resolve_cache_lookups_total\{result="stale"\} (\d+)/.exec(metrics)?.[1] ?? 0,
    );

    // Judged.
    const archivedOnce = written.filter((k) => perKey.get(k) === 1).length;
    const archivedTwice = [...perKey.values()].filter((n) => n > 1).length;
    const streamKeys = new Set(written.filter((k) => [...stream.keys.values()].includes(k)));
    const streamDuplicates = stream.ids.length - new Set(stream.ids).size;
    const hookIds = new Map<string, string>();
    for (const d of receiver.deliveries) hookIds.set(d.id, d.key);
    const hookKeys = new Set(hookIds.values());
    if (archivedOnce !== written.length || archivedTwice > 0)
      failures.push(`archive: ${archivedOnce}/${written.length} once, ${archivedTwice} more than once`);
    if (streamKeys.size !== written.length || streamDuplicates > 0)
      failures.push(
        `stream: ${streamKeys.size}/${written.length} changes, ${streamDuplicates} duplicate ids`,
      );
    if (written.some((k) => !hookKeys.has(k)) || hookIds.size !== hookKeys.size)
      failures.push(`webhooks: ${hookKeys.size}/${written.length} changes under ${hookIds.size} ids`);
    if (readers.bad.length > 0)
      failures.push(`readers: ${readers.bad.length} bad answers: ${readers.bad.slice(0, 5)}`);
    if (newLeaderSeconds === null) failures.push("no new leader");
    const resumeBound = o.resumeBoundSeconds ?? 10;
    if (resumedSeconds === null || resumedSeconds > resumeBound)
      failures.push(
        `indexing resumed ${resumedSeconds ?? "never"} s after the new leader (bound ${resumeBound} s)`,
      );
    if (writer.errors.length > 0) failures.push(`writer: ${writer.errors.slice(0, 3)}`);
    const routes = Object.fromEntries(Object.entries(readers.routes).map(([p, f]) => [p, f.byStatus]));
    return {
      killed,
      newLeader,
      newLeaderSeconds,
      resumedSeconds,
      rejoinSeconds,
      rejoinedAs,
      written: written.length,
      archivedOnce,
      archivedTwice,
      streamReceived: streamKeys.size,
      streamDuplicates,
      streamConnections: stream.connections,
      webhookIds: hookIds.size,
      webhookDuplicates: receiver.deliveries.length - hookIds.size,
      routes,
      bad: readers.bad,
      unavailableSeconds: [...readers.timeline.values()].filter(([, u]) => u > 0).length,
      finalStatus,
      staleAnswers,
      failures,
      ok: failures.length === 0,
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}
