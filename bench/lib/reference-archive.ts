// The archive an uninterrupted indexer makes of a devnet's chain: what a run under faults or with replicas coming and
// going is compared with, event by event (bench/faults, bench/topology).
import { createTestDatabase, indexerFor, runUntilIdle } from "@namereg/server/testing";

/** The ids of the events an uninterrupted indexer archives of `devnet`'s chain; its database closes with `cleanup`. */
export async function referenceEventIds(
  devnet: Parameters<typeof indexerFor>[0],
  cleanup: (() => Promise<unknown>)[],
): Promise<string[]> {
  const reference = await createTestDatabase("postgres");
  cleanup.push(() => reference.close());
  const indexer = indexerFor(devnet, reference.db, { concurrency: 2 });
  await indexer.init();
  await runUntilIdle(indexer, 100_000);
  return (await reference.query<{ id: string }>("select id from events")).map((r) => r.id);
}
