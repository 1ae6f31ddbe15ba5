// The topology suite's view of the archive (suite.ts): events, the processed ledger and the writer fence, read on
// the cluster directly, and the comparison with an uninterrupted run's events.
import pg from "pg";

export interface ArchiveReader {
  count(): Promise<number>;
  /** The indexer's processed ledger as committed (what /v1/status reports as the Indexer's ledger). */
  processedLedger(): Promise<number>;
  epoch(): Promise<number>;
  compare(
    referenceIds: string[],
  ): Promise<{ lost: number; extra: number; duplicated: number; archived: number }>;
  close(): Promise<void>;
}

/** Reads the archive on the cluster through a connection of its own, reconnecting after the restart. */
export function archiveReader(url: string): ArchiveReader {
  let current: pg.Client | null = null;
  const connection = async () => {
    if (current !== null) return current;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    c.on("error", () => {
      if (current === c) current = null;
    });
    await c.connect();
    current = c;
    return c;
  };
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
    const c = await connection();
    try {
      return (await c.query<T>(sql, params)).rows;
    } catch (err) {
      if (current === c) current = null;
      await c.end().catch(() => undefined);
      throw err;
    }
  };
  const n = async (sql: string, params: unknown[] = []) =>
    Number((await query<{ n: string }>(sql, params))[0]?.n ?? 0);
  return {
    count: () => n("select count(*) as n from events"),
    processedLedger: () => n("select max(processed_ledger) as n from indexer_state"),
    epoch: () => n("select epoch as n from writer_fence where id = 1"),
    compare: async (ids) => ({
      lost: await n(
        "select count(*) as n from unnest($1::text[]) as ref(id) where not exists (select 1 from events e where e.id = ref.id)",
        [ids],
      ),
      extra: await n("select count(*) as n from events where not (id = any($1::text[]))", [ids]),
      duplicated:
        (await n("select count(*) - count(distinct id) as n from events")) +
        (await n("select count(*) - count(distinct (event_id, node)) as n from name_history")),
      archived: await n("select count(*) as n from events"),
    }),
    close: async () => {
      await current?.end().catch(() => undefined);
      current = null;
    },
  };
}
