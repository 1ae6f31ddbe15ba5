// Directory reverse lists the names an account holds now, judging expiry as resolve does: by the later of the wall
// clock and the latest chain time (docs/api.md "Expiry"). With the wall clock behind the chain, a name resolve
// answers 404 name_expired must not be listed as held.
import { demoKeypair } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import type { IndexedDemo } from "../../../../test/fixtures/demo.ts";
import { demoWithWallClockBehindChain } from "../../../../test/fixtures/expiry-clock.ts";
import type { App } from "../../app.ts";

/** Holds bob.acme and old.acme. */
const bob = demoKeypair("bob").publicKey();

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`directory reverse with the wall clock behind the chain on ${kind}`, () => {
    let demo: IndexedDemo;
    let app: App;

    beforeAll(async () => {
      ({ demo, app } = await demoWithWallClockBehindChain(kind));
    });
    afterAll(async () => {
      await demo?.close();
    });

    it("leaves out a name that resolve answers name_expired", async () => {
      const resolved = await app.inject({ url: "/v1/resolve/acme/old" });
      expect({ statusCode: resolved.statusCode, body: resolved.json() }).toEqual({
        statusCode: 404,
        body: { error: "name_expired", name: "old.acme" },
      });
      const response = await app.inject({ url: `/v1/directory/reverse/${bob}` });
      expect({ statusCode: response.statusCode, body: response.json() }).toEqual({
        statusCode: 200,
        body: {
          address: bob,
          filtered: false,
          entries: [{ name: "bob.acme", namespace: "acme", namespaceDisplay: "Acme" }],
        },
      });
    });
  });
}
