// For the discovery, directory and federation tests: the demo devnet indexed into a fresh database, with the
// off-chain profile rows `namereg dev` would seed, and an app over it whose clock stands still.
import type { NamingDevnet } from "@namereg/devnet";
import type { Env } from "../../config/load.ts";
import { testConfig } from "../../config/testing.ts";
import { namespaceProfiles } from "../../db/tables.ts";
import type { TestDatabase } from "../../db/testing.ts";
import type { DatabaseKind } from "../../db/url.ts";
import { indexDemo } from "../../indexer/testing.ts";
import { type App, buildApp } from "../app.ts";

export const ACME_LOGO = "data:image/png;base64,iVBORw0KGgo=";

export interface IndexedDemo {
  readonly devnet: NamingDevnet;
  readonly database: TestDatabase;
  /** Just after indexing; apps built by `appAt` default to it. */
  readonly indexedAt: Date;
  /** An app over the indexed demo with this configuration and clock; closed with the demo. */
  appAt(options?: { env?: Env; now?: Date }): Promise<App>;
  close(): Promise<void>;
}

export async function indexedDemo(kind: DatabaseKind): Promise<IndexedDemo> {
  const { devnet, database: db } = await indexDemo(kind);
  const apps: App[] = [];
  try {
    await db.db.insert(namespaceProfiles).values({ label: "acme", displayName: "Acme", logo: ACME_LOGO });
  } catch (error) {
    await db.close();
    await devnet.stop();
    throw error;
  }
  const indexedAt = new Date();
  return {
    devnet,
    database: db,
    indexedAt,
    async appAt(options = {}) {
      const at = options.now ?? indexedAt;
      const app = await buildApp({
        config: testConfig(options.env),
        db,
        redis: null,
        now: () => at,
      });
      apps.push(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.close();
      await devnet.stop();
      await db.close();
    },
  };
}
