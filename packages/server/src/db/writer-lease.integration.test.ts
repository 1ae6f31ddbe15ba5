// A writer frozen (SIGSTOP) inside a batch transaction loses its place: its lock lease and its batch end on the
// server, a standby takes the writer lock and a new epoch instead of waiting for as long as the freeze lasts, and
// the writer, continued (SIGCONT), knows it lost the lock and commits nothing. Both places a batch can be frozen
// in: idle between two statements, and in the middle of a COPY (which no server-side idle timeout ends).
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { signalGroup, spawnInGroup } from "../../test/fixtures/child-processes.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { INDEXER_LOCK } from "../runtime/indexer-process.ts";
import { openDatabase } from "./database.ts";
import { advisoryLockKey } from "./shared.ts";
import type { AdvisoryLock, Database } from "./types.ts";
import { takeWriterEpoch } from "./writer-fence.ts";

const FIXTURE = fileURLToPath(new URL("../../test/fixtures/frozen-writer.ts", import.meta.url));
/** The writer's bound in this test: short, so the test is; the hand-over takes about this long. */
const STALL_MS = 2000;
/** Only tells a hand-over from a standby that waits for as long as the freeze lasts (the defect). */
const HANG_MS = 40_000;

interface Line {
  step: string;
  epoch?: number;
  committed?: boolean;
  lockLost?: boolean;
  error?: string | null;
}

/**
 * The fixture in its own process group (on the test's list, so the end of the test kills and waits for it), its
 * JSON lines readable one at a time.
 */
function startWriter(url: string, mode: "idle" | "copy") {
  const child = spawnInGroup(process.execPath, [FIXTURE, url, String(STALL_MS), mode], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const next = async (): Promise<Line> => {
    const { value, done } = await bounded(lines.next(), "the frozen writer's next line");
    if (done === true) throw new Error("the frozen writer exited early");
    return JSON.parse(String(value)) as Line;
  };
  return { child, next };
}

async function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a writer frozen inside a batch", () => {
  let database: TestDatabase | undefined;
  let standby: Database | undefined;
  let lock: AdvisoryLock | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    // A stopped process ignores SIGTERM until continued; SIGKILL ends it either way.
    for (const c of children.splice(0)) {
      signalGroup(c, "SIGCONT");
      signalGroup(c, "SIGKILL");
    }
    await lock?.release();
    await standby?.close();
    await database?.close();
    database = standby = lock = undefined;
  });

  for (const mode of ["idle", "copy"] as const) {
    it(`(${mode === "idle" ? "between two statements" : "mid-COPY"}) loses its place to the standby and writes nothing once continued`, async () => {
      database = await createTestDatabase("postgres");
      const writer = startWriter(database.url, mode);
      children.push(writer.child);
      const inBatch = await writer.next();
      expect(inBatch.step).toBe("in-batch");
      signalGroup(writer.child, "SIGSTOP");

      standby = await openDatabase({ url: database.url });
      const key = advisoryLockKey(INDEXER_LOCK);
      lock = await bounded(standby.advisoryLock(key, { leaseMs: STALL_MS }), "the standby's writer lock");
      const epoch = await bounded(
        takeWriterEpoch(standby.db, { stallTimeoutMs: STALL_MS }),
        "the standby's writer epoch",
      );
      expect(epoch).toBe((inBatch.epoch ?? 0) + 1);

      signalGroup(writer.child, "SIGCONT");
      writer.child.stdin?.write("go on\n");
      const done = await writer.next();
      expect(done).toMatchObject({ step: "done", committed: false, lockLost: true });
      const rows = await database.query("select reason from gaps where contract_id = 'frozen-writer'");
      expect(rows).toEqual([]);
      const [fence] = await database.query<{ epoch: number }>("select epoch::int as epoch from writer_fence");
      expect(fence?.epoch).toBe(epoch);
    });
  }
});
