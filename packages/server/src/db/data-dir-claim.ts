// One process per embedded-database directory. PGlite is PostgreSQL running inside this process: a second process
// opening the same directory runs a second server on the same files, and both "hold" the writer lock (it lives in
// each process's memory), so two `namereg start` on one DATA_DIR both indexed and one's writes were lost.
// Why by hand: lock-file libraries judge a lock stale by its age (proper-lockfile: after 10 s without a refresh),
// which would refuse a restart for seconds after a crash; on one host the kernel can say at once whether the
// holder still runs (`kill(pid, 0)`), so a pid file is both simpler and exact here.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `the embedded database in ${dir} is in use by process ${pid}; PGlite serves one process — stop that one, ` +
        "use another DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several processes",
    );
    this.name = "DataDirInUseError";
  }
}

export const PID_FILE = "namereg.pid";

/** The live process holding `dir`, or null (no claim, or its process is gone). */
export async function dataDirHolder(dir: string): Promise<number | null> {
  const pid = Number((await readFile(join(dir, PID_FILE), "utf8").catch(() => "")).trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

/** Claims `dir` for this process; returns the release. Throws DataDirInUseError while another process holds it. */
export async function claimDataDir(dir: string): Promise<() => Promise<void>> {
  const file = join(dir, PID_FILE);
  const release = async () => {
    await rm(file, { force: true });
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: "wx" });
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = await dataDirHolder(dir);
    if (holder !== null) throw new DataDirInUseError(dir, holder);
    // Left by a process that is gone (killed, crashed) or by this one: the claim is free to take.
    await rm(file, { force: true });
  }
  throw new Error(`could not claim ${dir}: its ${PID_FILE} keeps changing`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
