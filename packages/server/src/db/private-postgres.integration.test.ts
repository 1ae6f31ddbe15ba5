// The private cluster helper itself: it starts, answers, survives a restart and is gone after stop.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.ts";

describe("private PostgreSQL cluster", () => {
  let cluster: PrivatePostgres | undefined;
  afterAll(async () => {
    await cluster?.stop();
  });

  it("answers on its own port, drops connections on restart and answers again", async () => {
    cluster = await startPrivatePostgres();
    const client = new pg.Client({ connectionString: cluster.url });
    const ended = new Promise<void>((resolve) => client.once("end", () => resolve()));
    client.on("error", () => undefined);
    await client.connect();
    expect((await client.query("select current_setting('port') as port")).rows[0]).toEqual({
      port: String(cluster.port),
    });
    await cluster.restart();
    await ended;
    const again = new pg.Client({ connectionString: cluster.url });
    await again.connect();
    expect((await again.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    await again.end();
  });
});
