// The `Webhook deliverer` status component on both databases: absent without endpoints, unknown before a pass,
// then aged by the watchers' rule, with its counts; and the /v1/status route showing it last.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { withTestDatabases } from "../../test/fixtures/database.ts";
import { type App, buildApp } from "../api/app.ts";
import { webhookDeliverer, webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import { delivererComponent } from "./status.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

withTestDatabases((t) => {
  describe("the Webhook deliverer component", () => {
    let app: App;
    beforeAll(async () => {
      app = await buildApp({ config: testConfig(), db: t.db(), redis: null, now: () => NOW });
    });
    afterAll(async () => {
      await app?.close();
    });
    const names = async () =>
      ((await app.inject({ url: "/v1/status" })).json().components as { name: string }[]).map((c) => c.name);

    it("is absent while no endpoint is registered", async () => {
      expect(await delivererComponent(t.db().db, NOW)).toBeNull();
      expect(await names()).not.toContain("Webhook deliverer");
    });

    it("is unknown before the first pass, then operational, lagging and down as the last pass ages", async () => {
      const { db } = t.db();
      for (const [id, disabledAt] of [
        ["ep_s1", null],
        ["ep_s2", NOW],
      ] as const) {
        await db.insert(webhookEndpoints).values({
          id,
          namespace: "acme",
          url: "https://hooks.example.com/",
          types: ["name.issued"],
          secret: "whsec_AAAA",
          createdAt: NOW,
          cursor: 0,
          disabledAt,
        });
      }
      await db.insert(webhookDeliveries).values({
        id: "msg_s1",
        endpointId: "ep_s1",
        position: 1,
        type: "name.issued",
        body: "{}",
        state: "pending",
        createdAt: NOW,
      });
      const counts = { pending: 1, disabledEndpoints: 1 };
      expect(await delivererComponent(db, NOW)).toEqual({
        name: "Webhook deliverer",
        state: "unknown",
        passAgeSeconds: null,
        ...counts,
      });
      for (const [age, state] of [
        [10, "operational"],
        [61, "lagging"],
        [121, "down"],
      ] as const) {
        await db
          .insert(webhookDeliverer)
          .values({ id: 1, epoch: 1, passAt: ago(age) })
          .onConflictDoUpdate({ target: webhookDeliverer.id, set: { passAt: ago(age) } });
        expect(await delivererComponent(db, NOW)).toEqual({
          name: "Webhook deliverer",
          state,
          passAgeSeconds: age,
          ...counts,
        });
      }
      expect((await names()).at(-1)).toBe("Webhook deliverer");
    });
  });
});
