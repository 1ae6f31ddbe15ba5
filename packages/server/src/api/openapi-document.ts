// The OpenAPI document as `npm run openapi` writes it (docs/openapi.json): the app built on a throw-away
// embedded database with the test configuration, so the document depends on the routes alone, never on a
// deployment's settings; its `servers` is `namereg dev`'s address on its default port (a running server's own
// /openapi.json names its PUBLIC_URL instead). Keys keep the order the routes were registered in; the text ends with a newline.

import { loadConfig } from "../config/load.ts";
import { openDatabase } from "../db/database.ts";
import { buildApp } from "./app.ts";

export async function renderOpenApiDocument(): Promise<string> {
  const database = await openDatabase({ url: "memory://" });
  try {
    await database.migrate();
    const app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: "silent",
        DATABASE_URL: "memory://",
        SESSION_SECRET: "x".repeat(32),
        PUBLIC_URL: "http://localhost:8080",
      }),
      db: database,
      redis: null,
    });
    try {
      await app.ready();
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
