// The topology suite's last check (suite.ts): the archive against the chain. Once the archive has caught up, an
// uninterrupted in-process run of the same chain on a fresh database gives every event's id: 0 lost, 0 extra, 0
// duplicated history rows, and no recorded gap in /v1/coverage on any replica.
import type { NamingDevnet } from "@namereg/devnet";
import { referenceEventIds } from "../lib/reference-archive.ts";
import type { ArchiveReader } from "./archive-reader.ts";
import type { HttpClient } from "./http-client.ts";
import { untilAsync } from "./waiting.ts";

export interface ArchiveResult {
  archived: number;
  lost: number;
  extra: number;
  duplicated: number;
  coverage: { complete: boolean; gaps: number }[];
}

export async function archiveCheck(o: {
  devnet: NamingDevnet;
  archive: ArchiveReader;
  replicas: string[];
  setup: HttpClient;
  /** Events on the chain. */
  chainEvents: number;
  liveEvents: number;
  cleanup: (() => Promise<unknown>)[];
  failures: string[];
  log: (line: string) => void;
}): Promise<ArchiveResult> {
  const { devnet, archive, replicas, setup, chainEvents, liveEvents, cleanup, failures, log } = o;
  await untilAsync(
    async () => (await archive.count()) >= chainEvents,
    "the archive to catch up",
    120_000,
  ).catch((err: Error) => failures.push(err.message));
  const referenceIds = await referenceEventIds(devnet, cleanup);
  if (referenceIds.length !== chainEvents)
    failures.push(
      `the uninterrupted run archived ${referenceIds.length} events, the chain has ${chainEvents}`,
    );
  const { lost, extra, duplicated, archived } = await archive.compare(referenceIds);
  const coverage: ArchiveResult["coverage"] = [];
  for (const url of replicas) {
    const answer = await setup.get(`${url}/v1/coverage`);
    const body =
      answer.status === 200 ? (JSON.parse(answer.body) as { complete: boolean; gaps: unknown[] }) : null;
    coverage.push({ complete: body?.complete === true, gaps: body?.gaps.length ?? -1 });
  }
  log(
    `archive: ${archived} events, chain ${chainEvents} (${liveEvents} produced during the run); lost ${lost}, extra ${extra}, duplicated history rows ${duplicated}; coverage ${coverage.map((c) => `complete ${c.complete}, ${c.gaps} gaps`).join(" / ")}`,
  );
  if (lost > 0 || extra > 0 || duplicated > 0 || archived !== chainEvents)
    failures.push(
      `archive: ${archived}/${chainEvents}, lost ${lost}, extra ${extra}, duplicated ${duplicated}`,
    );
  if (coverage.some((c) => c.gaps !== 0)) failures.push("coverage records a gap (or did not answer)");
  return { archived, lost, extra, duplicated, coverage };
}
