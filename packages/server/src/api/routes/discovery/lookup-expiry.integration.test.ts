// /v1/lookup offers names that resolve, judging expiry as resolve does: by the later of the wall clock and the
// latest chain time (docs/api.md "Expiry"; the namespace's name list marks the same name expired). With the wall
// clock behind the chain, a name resolve answers 404 name_expired is not offered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import type { IndexedDemo } from "../../../../test/fixtures/demo.ts";
import { demoWithWallClockBehindChain } from "../../../../test/fixtures/expiry-clock.ts";
import type { App } from "../../app.ts";

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`lookup with the wall clock behind the chain on ${kind}`, () => {
    let demo: IndexedDemo;
    let app: App;

    beforeAll(async () => {
      ({ demo, app } = await demoWithWallClockBehindChain(kind));
    });
    afterAll(async () => {
      await demo?.close();
    });

    it("does not offer a name that resolve answers name_expired", async () => {
      const resolved = await app.inject({ url: "/v1/resolve/acme/old" });
      expect({ statusCode: resolved.statusCode, body: resolved.json() }).toEqual({
        statusCode: 404,
        body: { error: "name_expired", name: "old.acme" },
      });
      const listed = await app.inject({ url: "/v1/namespaces/acme/names" });
      expect(listed.json().names.find((n: { name: string }) => n.name === "old.acme")?.expired).toBe(true);

      const response = await app.inject({ url: "/v1/lookup?q=old" });
      expect({ statusCode: response.statusCode, body: response.json() }).toEqual({
        statusCode: 200,
        body: { q: "old", namespaces: [], names: [] },
      });
      // The live names are still offered.
      expect((await app.inject({ url: "/v1/lookup?q=bob.acme" })).json()).toEqual({
        q: "bob.acme",
        namespaces: [{ label: "acme", displayName: "Acme" }],
        names: [{ name: "bob.acme", label: "bob", namespace: "acme" }],
      });
    });
  });
}
