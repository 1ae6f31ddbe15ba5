// Vitest global setup: what every database test starts from is built once per run instead of once per file.
// A migrated PGlite is dumped to a file that each file loads (migrating one takes seconds, loading it a fraction
// of that), and a migrated PostgreSQL database serves as the template that `CREATE DATABASE … TEMPLATE` copies.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildTemplates, dropPostgresTemplate } from "./fixtures/templates.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "namereg-test-"));
  // Unit tests need no database server, so only the integration project gets a PostgreSQL template.
  const { pgliteDump, postgresTemplate } = await buildTemplates({ postgres: project.name === "integration" });
  const pgliteDumpPath = join(dir, "migrated.tar");
  await writeFile(pgliteDumpPath, Buffer.from(await pgliteDump.arrayBuffer()));
  project.provide("pgliteMigratedDump", pgliteDumpPath);
  if (postgresTemplate !== undefined) project.provide("postgresMigratedTemplate", postgresTemplate);
  return async () => {
    if (postgresTemplate !== undefined) await dropPostgresTemplate(postgresTemplate);
    await rm(dir, { recursive: true, force: true });
  };
}
