// The scale benchmark's databases: one per size (`namereg_scale_<names>_<events>`), migrated with the project's
// migrator and seeded once (test/fixtures/scale-seed.ts); a later run with the same size reuses it. The seed is
// recorded in a one-row table, so a database whose seeding was interrupted is dropped and seeded again from the start
// (the seed drops the tables' indexes while it loads).
import { openDatabase } from "@namereg/server";
import { seedScale } from "@namereg/server/testing";
import pg from "pg";

export interface ScaleDatabase {
  readonly url: string;
  /** Seconds the seeding took now; null when an earlier run's database was reused. */
  readonly seedSeconds: number | null;
}

export async function scaleDatabase(
  server: string,
  size: { names: number; events: number; seed: number },
  log: (line: string) => void,
): Promise<ScaleDatabase> {
  const name = `namereg_scale_${size.names}_${size.events}_${size.seed}`;
  const url = `${server.replace(/\/[^/]*$/, "")}/${name}`;
  if (await seeded(server, name, url)) return { url, seedSeconds: null };
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ url });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  const t = performance.now();
  await seedScale(url, { ...size, log });
  const seedSeconds = (performance.now() - t) / 1000;
  const marker = new pg.Client({ connectionString: url });
  await marker.connect();
  await marker.query("create table scale_seeded (names bigint, events bigint, seed int)");
  await marker.query("insert into scale_seeded values ($1, $2, $3)", [size.names, size.events, size.seed]);
  await marker.end();
  return { url, seedSeconds };
}

async function seeded(server: string, name: string, url: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const exists = await admin
    .query("select 1 from pg_database where datname = $1", [name])
    .finally(() => admin.end());
  if (exists.rowCount === 0) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const marker = await client.query("select 1 from pg_tables where tablename = 'scale_seeded'");
    return marker.rowCount === 1;
  } finally {
    await client.end();
  }
}
