// Vitest global setup: what every database test starts from is built once per run instead of once per file.
// A migrated PGlite is dumped to a file that each file loads (migrating one takes seconds, loading it a fraction
// of that), and a migrated PostgreSQL database serves as the template that `CREATE DATABASE … TEMPLATE` copies;
// for the integration project the demo chain indexed into both kinds is built the same way.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { buildDemoTemplates } from "./fixtures/demo-templates.ts";
import { buildTemplates, dropPostgresTemplate } from "./fixtures/templates.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "namereg-test-"));
  // Unit tests need no database server, so only the integration project gets a PostgreSQL template.
  const { pgliteDump, postgresTemplate } = await buildTemplates({ postgres: project.name === "integration" });
  const pgliteDumpPath = join(dir, "migrated.tar");
  await writeFile(pgliteDumpPath, Buffer.from(await pgliteDump.arrayBuffer()));
  project.provide("pgliteMigratedDump", pgliteDumpPath);
  if (postgresTemplate !== undefined) project.provide("postgresMigratedTemplate", postgresTemplate);
  // The indexed demo, for the integration files that only read the mirror (fixtures/demo-templates.ts).
  let demoTemplate: string | undefined;
  if (project.name === "integration") {
    const demo = await buildDemoTemplates({ migratedPglite: pgliteDump, migratedPostgres: postgresTemplate });
    const demoDumpPath = join(dir, "demo.tar");
    await writeFile(demoDumpPath, Buffer.from(await demo.pgliteDump.arrayBuffer()));
    project.provide("demoPgliteDump", demoDumpPath);
    if (demo.postgresTemplate !== undefined) project.provide("demoPostgresTemplate", demo.postgresTemplate);
    project.provide("demoChain", demo.chain);
    demoTemplate = demo.postgresTemplate;
  }
  return async () => {
    if (demoTemplate !== undefined) await dropPostgresTemplate(demoTemplate);
    if (postgresTemplate !== undefined) await dropPostgresTemplate(postgresTemplate);
    await rm(dir, { recursive: true, force: true });
  };
}
