// The topology suite's writer checks (suite.ts): the process holding the writer lock SIGKILLed while events keep
// coming (the standby must commit new events within a bound), then the new writer frozen (SIGSTOP: the standby
// must take over within WRITER_STALL_TIMEOUT_MS plus the bound, and the frozen writer, continued, must stand by
// without committing anything).
import { signalGroup } from "@namereg/server/testing";
import type { ArchiveReader } from "./archive-reader.ts";
import { client } from "./http-client.ts";
import type { Child } from "./processes.ts";
import { sleep, until } from "./waiting.ts";

export interface HandoverResult {
  killedPid: number;
  archivedAtKill: number;
  /** SIGKILL → the standby logs that it holds the writer lock. */
  lockTakenSeconds: number | null;
  /** SIGKILL → the first event committed after the kill. */
  writingSeconds: number | null;
  /** SIGKILL → /v1/status on both replicas shows the processed ledger past its value at the kill. */
  statusAdvancedSeconds: number | null;
  boundSeconds: number;
  ok: boolean;
}

export interface FreezeResult {
  frozenPid: number;
  stallTimeoutMs: number;
  /** SIGSTOP → the standby logs that it holds the writer lock. */
  lockTakenSeconds: number | null;
  /** SIGSTOP → the first event committed by the standby (after it took the lock). */
  writingSeconds: number | null;
  /** SIGCONT → the continued writer logs that it lost the lock (or stands by). */
  noticedSeconds: number | null;
  /** What the continued writer last logged, when it did not say it noticed (for the failure's message). */
  unnoticedTail: string;
  /**
   * The frozen writer's epoch, and the writer fence's when it was continued: every commit of the frozen writer
   * proves its epoch inside the transaction, so a newer fence means it can commit nothing after SIGCONT.
   */
  frozenEpoch: number | null;
  fenceEpochAtContinue: number;
  /** Writer lock acquisitions the continued writer logged after SIGCONT: must be 0 (the other one writes). */
  activeAfterContinue: number;
  boundSeconds: number;
  ok: boolean;
}

export async function handoverCheck(o: {
  indexers: Child[];
  spawnIndexer: (name: string) => Child;
  archive: ArchiveReader;
  replicas: string[];
  boundSeconds: number;
}): Promise<HandoverResult> {
  const alive = o.indexers.filter((c) => c.child.exitCode === null);
  const writer = alive.find((c) => c.role() === "writer");
  const standby = alive.find((c) => c.role() === "standby");
  if (writer === undefined || standby === undefined)
    throw new Error("no writer and standby to hand over between");
  const http = client("127.0.0.3");
  const processedLedger = async (url: string) => {
    const a = await http.get(`${url}/v1/status`);
    if (a.status !== 200) return null;
    const body = JSON.parse(a.body) as { components: { name: string; ledger?: number | null }[] };
    return body.components.find((c) => c.name === "Indexer")?.ledger ?? null;
  };
  const activeBefore = standby.activeCount();
  const killed = performance.now();
  signalGroup(writer.child, "SIGKILL");
  await writer.exited;
  // Whatever the writer committed is in; from here on new rows can only come from the standby, and only the
  // standby can move the processed ledger the replicas report past its value now.
  const archivedAtKill = await o.archive.count();
  const ledgerAtKill = await o.archive.processedLedger();
  const elapsed = () => (performance.now() - killed) / 1000;
  let lockTaken: number | null = null;
  let writing: number | null = null;
  let statusAdvanced: number | null = null;
  const deadline = performance.now() + Math.max(30_000, o.boundSeconds * 3000);
  while (
    performance.now() < deadline &&
    (lockTaken === null || writing === null || statusAdvanced === null)
  ) {
    if (lockTaken === null && standby.activeCount() > activeBefore) lockTaken = elapsed();
    if (writing === null && (await o.archive.count()) > archivedAtKill) writing = elapsed();
    if (statusAdvanced === null) {
      const ledgers = await Promise.all(o.replicas.map(processedLedger));
      if (ledgers.every((l) => l !== null && l > ledgerAtKill)) statusAdvanced = elapsed();
    }
    await sleep(20);
  }
  http.close();
  // The killed process comes back as the new standby, so the restart check again has a writer and a standby.
  const restarted = o.spawnIndexer(`${writer.name}'`);
  o.indexers.splice(o.indexers.indexOf(writer), 1, restarted);
  await until(() => restarted.role() === "standby", `${restarted.name} to wait as a standby`);
  return {
    killedPid: writer.child.pid ?? -1,
    archivedAtKill,
    lockTakenSeconds: lockTaken,
    writingSeconds: writing,
    statusAdvancedSeconds: statusAdvanced,
    boundSeconds: o.boundSeconds,
    ok: writing !== null && writing <= o.boundSeconds && lockTaken !== null,
  };
}

export async function freezeCheck(o: {
  indexers: Child[];
  archive: ArchiveReader;
  stallTimeoutMs: number;
  boundSeconds: number;
}): Promise<FreezeResult> {
  const alive = o.indexers.filter((c) => c.child.exitCode === null);
  const writer = alive.find((c) => c.role() === "writer");
  const standby = alive.find((c) => c.role() === "standby");
  if (writer === undefined || standby === undefined) throw new Error("no writer and standby to freeze");
  const activeBefore = standby.activeCount();
  const frozen = performance.now();
  writer.child.kill("SIGSTOP");
  const elapsed = (from: number) => (performance.now() - from) / 1000;
  let lockTaken: number | null = null;
  let writing: number | null = null;
  let archivedAtLock = 0;
  let fenceEpochAtContinue = 0;
  const frozenEpoch = writer.epoch();
  const deadline = performance.now() + Math.max(30_000, o.boundSeconds * 3000);
  try {
    while (performance.now() < deadline && writing === null) {
      if (lockTaken === null && standby.activeCount() > activeBefore) {
        lockTaken = elapsed(frozen);
        // From here on only the standby can commit: the frozen writer's batch, if any, was ended.
        archivedAtLock = await o.archive.count();
      }
      if (lockTaken !== null && (await o.archive.count()) > archivedAtLock) writing = elapsed(frozen);
      await sleep(20);
    }
    fenceEpochAtContinue = await o.archive.epoch();
  } finally {
    writer.child.kill("SIGCONT");
  }
  // Continued: it must find its sessions ended, say so, and stand by; anything it logs as indexed would be a write.
  const continued = performance.now();
  const activeAtContinue = writer.activeCount();
  let noticed: number | null = null;
  while (performance.now() < continued + 30_000 && noticed === null) {
    if (writer.lostCount() > 0 || writer.role() === "standby") noticed = elapsed(continued);
    else await sleep(20);
  }
  // Time for anything it might still do (a batch it had fetched, a lock it might take) to show.
  await sleep(o.stallTimeoutMs);
  const activeAfterContinue = writer.activeCount() - activeAtContinue;
  return {
    frozenPid: writer.child.pid ?? -1,
    stallTimeoutMs: o.stallTimeoutMs,
    lockTakenSeconds: lockTaken,
    writingSeconds: writing,
    noticedSeconds: noticed,
    unnoticedTail: noticed === null ? writer.tail() : "",
    frozenEpoch,
    fenceEpochAtContinue,
    activeAfterContinue,
    boundSeconds: o.boundSeconds,
    ok:
      writing !== null &&
      writing <= o.boundSeconds &&
      noticed !== null &&
      frozenEpoch !== null &&
      fenceEpochAtContinue > frozenEpoch &&
      activeAfterContinue === 0,
  };
}
