import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimDataDir, DataDirInUseError, dataDirHolder } from "./data-dir-claim.ts";
import { openPglite } from "./pglite.ts";

const dir = () => mkdtemp(join(tmpdir(), "namereg-claim-"));
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid as number;

describe("one process per embedded-database directory", () => {
  it("refuses a directory a live process holds, naming it", async () => {
    const d = await dir();
    // The test runner's parent process: alive, and not this process.
    await writeFile(join(d, "namereg.pid"), String(process.ppid));
    expect(await dataDirHolder(d)).toBe(process.ppid);
    const refused = await claimDataDir(d).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`in use by process ${process.ppid}`);
    expect(await readFile(join(d, "namereg.pid"), "utf8")).toBe(String(process.ppid));
  });

  it("takes over a claim whose process is gone, and releases it", async () => {
    const d = await dir();
    await writeFile(join(d, "namereg.pid"), String(deadPid()));
    expect(await dataDirHolder(d)).toBeNull();
    const release = await claimDataDir(d);
    expect(await readFile(join(d, "namereg.pid"), "utf8")).toBe(String(process.pid));
    await release();
    expect(existsSync(join(d, "namereg.pid"))).toBe(false);
  });

  it("holds the directory while PGlite has it open, and frees it on close", async () => {
    const d = await dir();
    const database = await openPglite(`file://${d}`);
    expect(await readFile(join(d, "namereg.pid"), "utf8")).toBe(String(process.pid));
    await database.close();
    expect(existsSync(join(d, "namereg.pid"))).toBe(false);
  });
});
