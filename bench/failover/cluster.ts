// A PostgreSQL cluster under Patroni on one machine, from Debian's packages and the templates in config/ (the
// deployment docs/operations.md "High availability" describes): one etcd, two Patroni members each running its
// PostgreSQL 15, HAProxy routing a primary port (Patroni's /primary check) and a replica port (/replica). Every
// process runs in a process group of its own and is killed with it when the run ends (child-processes.ts); the
// postmasters, which Patroni starts in sessions of their own, are adopted so. PostgreSQL refuses to run as root,
// so as root Patroni runs as the `postgres` user.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adoptGroup, signalGroup, spawnInGroup } from "@namereg/server/testing";

const CONFIG = new URL("./config/", import.meta.url).pathname;
const HOST = "127.0.0.1";

export interface ClusterPorts {
  /** etcd's client and peer ports. */
  readonly etcd: readonly [number, number];
  /** Per member: PostgreSQL's port and Patroni's REST port. */
  readonly members: readonly (readonly [number, number])[];
  /** HAProxy's primary and replica ports. */
  readonly haproxy: readonly [number, number];
}

/** Fixed ports, so the configuration reads like a real one: PostgreSQL 1543x, etcd 12379–12380, HAProxy 1550x. */
export const DEFAULT_PORTS: ClusterPorts = {
  etcd: [12379, 12380],
  members: [
    [15432, 15436],
    [15433, 15437],
  ],
  haproxy: [15500, 15501],
};

export interface MemberState {
  readonly name: string;
  /** `leader`, `replica`, `sync_standby` (Patroni's /cluster). */
  readonly role: string;
  /** `running`, `streaming`, `starting`, `stopped`, … */
  readonly state: string;
  readonly timeline?: number;
}

export interface HaCluster {
  /** namereg's DATABASE_URL: HAProxy's primary port. */
  readonly primaryUrl: string;
  /** DATABASE_READ_URL: HAProxy's replica port. */
  readonly replicaUrl: string;
  readonly memberNames: readonly string[];
  /** Patroni's view of the members, asked of the first member whose REST API answers; [] when none does. */
  members(): Promise<MemberState[]>;
  /** The leader's name, or null while there is none (or no member answers). */
  leader(): Promise<string | null>;
  /** The machine lost: SIGKILL to the member's Patroni and to its postmaster with every backend, at once. */
  kill(name: string): Promise<void>;
  /** Starts the member's Patroni again on its data directory (it rejoins as a replica, rewinding if needed). */
  restart(name: string): Promise<void>;
  /** The last lines a process wrote (etcd, haproxy or a member's name), for failure messages. */
  tail(name: string): string;
  stop(): Promise<void>;
}

interface Member {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
  readonly dataDir: string;
  readonly configPath: string;
  patroni: ChildProcess | null;
  /** The adopted group of the postmaster Patroni started, and how to take it off the list. */
  postmaster: { pgid: number; release: () => void } | null;
}

/** Fills a template's {{key}}s; a key left unfilled is a mistake in this file, so it throws. */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template key {{${key}}} has no value`);
    return String(value);
  });
}

export async function startHaCluster(
  options: { ports?: ClusterPorts; ttl?: number; log?: (line: string) => void } = {},
): Promise<HaCluster> {
  const ports = options.ports ?? DEFAULT_PORTS;
  const ttl = options.ttl ?? 10;
  const log = options.log ?? (() => undefined);
  const root = await mkdtemp(join(tmpdir(), "namereg-failover-"));
  // Patroni runs as `postgres` when this runs as root; its files must be that user's.
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await postgresIds() : null;
  // mkdtemp makes it 0700: the `postgres` user must reach its members' directories inside.
  await chmod(root, 0o755);
  const outputs = new Map<string, string[]>();
  const children: ChildProcess[] = [];
  const record = (name: string, child: ChildProcess) => {
    const lines: string[] = [];
    outputs.set(name, lines);
    const keep = (chunk: Buffer) => {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      if (lines.length > 200) lines.splice(0, lines.length - 200);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    children.push(child);
    return child;
  };
  const password = randomBytes(12).toString("hex");
  const superuserPassword = `su${password}`;

  // etcd: the leader key's store.
  const etcdEnv = parseEnv(
    fill(await readFile(join(CONFIG, "etcd.env"), "utf8"), {
      name: "etcd1",
      dataDir: join(root, "etcd"),
      host: HOST,
      clientPort: ports.etcd[0],
      peerPort: ports.etcd[1],
    }),
  );
  record("etcd", spawnInGroup("etcd", [], { env: { ...etcdEnv, PATH: process.env.PATH }, stdio: "pipe" }));
  await until(
    async () => (await fetchOk(`http://${HOST}:${ports.etcd[0]}/health`)) !== null,
    "etcd to answer",
  );

  const template = await readFile(join(CONFIG, "patroni.yml"), "utf8");
  const members: Member[] = [];
  for (const [i, [pgPort, restPort]] of ports.members.entries()) {
    const name = `pg${i + 1}`;
    const runDir = join(root, name);
    await mkdir(runDir, { mode: 0o700 });
    const configPath = join(runDir, "patroni.yml");
    const dataDir = join(runDir, "data");
    await writeFile(
      configPath,
      fill(template, {
        name,
        host: HOST,
        restPort,
        pgPort,
        etcdHosts: `${HOST}:${ports.etcd[0]}`,
        ttl,
        loopWait: Math.max(1, Math.floor(ttl / 5)),
        retryTimeout: Math.floor((ttl - Math.max(1, Math.floor(ttl / 5))) / 2),
        replicationUser: "replicator",
        replicationPassword: password,
        superuserPassword,
        network: `${HOST}/32`,
        dataDir,
        runDir,
      }),
    );
    if (owner !== null) {
      await chown(runDir, owner.uid, owner.gid);
      await chown(configPath, owner.uid, owner.gid);
    }
    members.push({ name, pgPort, restPort, dataDir, configPath, patroni: null, postmaster: null });
  }

  const startMember = async (m: Member) => {
    const env = { PATH: process.env.PATH, HOME: join(root, m.name), LANG: "C.UTF-8" };
    m.patroni = record(
      m.name,
      spawnInGroup("patroni", [m.configPath], {
        env,
        stdio: "pipe",
        ...(owner === null ? {} : { uid: owner.uid, gid: owner.gid }),
      }),
    );
    // Patroni starts the postmaster in a session of its own: adopt that group once it is there.
    await until(async () => {
      const pid = await postmasterPid(m.dataDir);
      const pgid = pid === null ? null : await groupOf(pid);
      if (pgid === null) return false;
      m.postmaster?.release();
      m.postmaster = { pgid, release: adoptGroup(pgid, `postgres of ${m.name}`) };
      return true;
    }, `${m.name}'s postmaster to start`);
  };

  const members_ = async (): Promise<MemberState[]> => {
    for (const m of members) {
      const body = await fetchOk(`http://${HOST}:${m.restPort}/cluster`);
      if (body !== null) return (JSON.parse(body) as { members: MemberState[] }).members;
    }
    return [];
  };

  // The first member bootstraps the cluster (initdb) and becomes the leader; the second clones it.
  const [first, ...rest] = members;
  if (first === undefined) throw new Error("no members");
  await startMember(first);
  await until(
    async () => (await members_()).some((s) => s.name === first.name && s.role === "leader"),
    "pg1 to lead",
  );
  for (const m of rest) await startMember(m);
  await until(
    async () =>
      (await members_()).filter((s) => s.role !== "leader" && isStreaming(s)).length === rest.length,
    "the replicas to stream",
  );

  const haproxyCfg = join(root, "haproxy.cfg");
  const servers = (prefix: string) =>
    members
      .map((m) => `    server ${prefix}${m.name} ${HOST}:${m.pgPort} check port ${m.restPort}`)
      .join("\n");
  await writeFile(
    haproxyCfg,
    fill(await readFile(join(CONFIG, "haproxy.cfg"), "utf8"), {
      bindHost: HOST,
      primaryPort: ports.haproxy[0],
      replicaPort: ports.haproxy[1],
      primaryServers: servers("primary_"),
      replicaServers: servers("replica_"),
    }),
  );
  record("haproxy", spawnInGroup("haproxy", ["-db", "-f", haproxyCfg], { stdio: "pipe" }));
  const url = (port: number) => `postgres://postgres:${superuserPassword}@${HOST}:${port}/postgres`;
  log(`cluster up in ${root}: etcd, ${members.length} Patroni members, HAProxy`);

  return {
    primaryUrl: url(ports.haproxy[0]),
    replicaUrl: url(ports.haproxy[1]),
    memberNames: members.map((m) => m.name),
    members: members_,
    leader: async () => (await members_()).find((s) => s.role === "leader")?.name ?? null,
    async kill(name) {
      const m = memberNamed(members, name);
      if (m.patroni !== null) signalGroup(m.patroni, "SIGKILL");
      if (m.postmaster !== null) {
        try {
          process.kill(-m.postmaster.pgid, "SIGKILL");
        } catch {
          // Gone already.
        }
        m.postmaster.release();
        m.postmaster = null;
      }
    },
    restart: (name) => startMember(memberNamed(members, name)),
    tail: (name) => (outputs.get(name) ?? []).slice(-30).join("\n"),
    async stop() {
      for (const m of members) {
        if (m.postmaster !== null) {
          try {
            process.kill(-m.postmaster.pgid, "SIGKILL");
          } catch {
            // Gone already.
          }
          m.postmaster.release();
        }
      }
      for (const child of children) signalGroup(child, "SIGKILL");
      await rm(root, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

export function isStreaming(s: MemberState): boolean {
  return s.state === "running" || s.state === "streaming";
}

function memberNamed(members: Member[], name: string): Member {
  const m = members.find((m) => m.name === name);
  if (m === undefined) throw new Error(`no member ${name}`);
  return m;
}

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) env[match[1]] = match[2];
  }
  return env;
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const line = (await readFile("/etc/passwd", "utf8")).split("\n").find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error("no postgres user (Debian's postgresql package)");
  return { uid: Number(uid), gid: Number(gid) };
}

async function postmasterPid(dataDir: string): Promise<number | null> {
  const text = await readFile(join(dataDir, "postmaster.pid"), "utf8").catch(() => null);
  const pid = Number(text?.split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The process group of `pid` (/proc/<pid>/stat, the field after the state), or null when it is gone. */
async function groupOf(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const pgid = Number(fields[2]);
  return Number.isInteger(pgid) && pgid > 0 ? pgid : null;
}

/** The body of a 200 answer, or null (another status, refused, or no answer within 2 s). */
export async function fetchOk(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const body = await response.text();
    return response.ok ? body : null;
  } catch {
    return null;
  }
}

/** Polls `check` every 200 ms until it is true; throws naming `what` after `limitMs`. */
export async function until(check: () => Promise<boolean>, what: string, limitMs = 90_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!(await check().catch(() => false))) {
    if (performance.now() > deadline)
      throw new Error(`gave up waiting for ${what} after ${limitMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
