// A throw-away PostgreSQL cluster of its own, for the tests and reliability runs that restart the database
// server: the shared one on 5432 serves everybody else. Debian's binaries; PostgreSQL refuses to run as root,
// so as root the cluster runs as the `postgres` user (runuser).
import { execFile } from "node:child_process";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const DEBIAN_ROOT = "/usr/lib/postgresql";

export interface PrivatePostgres {
  /** The cluster's `postgres` database as user `postgres` (trust auth, 127.0.0.1 only). */
  readonly url: string;
  readonly port: number;
  /** `pg_ctl restart -m fast`: every connection is dropped, the server is back when this resolves. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function binDir(): Promise<string> {
  const versions = (await readdir(DEBIAN_ROOT))
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  if (newest === undefined) throw new Error(`no PostgreSQL under ${DEBIAN_ROOT}`);
  return join(DEBIAN_ROOT, newest, "bin");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  return { uid, gid };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binDir();
  const dir = await mkdtemp(join(tmpdir(), "namereg-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await postgresIds();
    await chown(dir, uid, gid);
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, tool), ...args]) : run(join(bin, tool), args);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (...args: string[]) =>
    pg("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", ...args]);
  try {
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
    await ctl("-o", options, "start");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async () => {
      await ctl("-m", "fast", "-o", options, "restart");
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await ctl("-m", "immediate", "stop").catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
