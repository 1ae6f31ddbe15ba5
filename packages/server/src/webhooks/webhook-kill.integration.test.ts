// The webhook deliverer SIGKILLed at random points of its work across seeded outbox changes (a short variant of
// bench/webhook-kill, which runs 10,000 changes and 20 kills): every (endpoint, change) acknowledged at least
// once, first acknowledgements in outbox order per endpoint, one webhook-id per change, duplicates counted. Sized
// to the least that still kills the deliverer at three seeded points spread over the delivery, with 500s among
// the answers: each kill costs a cold process start, and more changes only lengthen the same path.
import { describe, expect, it } from "vitest";
import { BACKSTOP_MS, withProgress } from "../../test/fixtures/progress.ts";
import { runWebhookKill, webhookKillHeld } from "../../test/fixtures/webhook-kill-run.ts";

describe("webhook deliverer crash safety", () => {
  it(
    "delivers every change at least once, in order per endpoint, across 3 SIGKILLs (120 changes, seed 3)",
    async () => {
      // Bounded by progress: each kill and each acknowledgement is progress; a minute without any is stuck.
      const figures = await withProgress("the webhook kill run", 60_000, (onProgress) =>
        runWebhookKill({ changes: 120, kills: 3, seed: 3, onProgress }),
      );
      console.log("webhook kill run:", JSON.stringify(figures, null, 2));
      expect(figures.kills).toBe(3);
      expect(figures.expected).toBeGreaterThan(120);
      expect(figures.lost).toBe(0);
      expect(figures.outOfOrder).toBe(0);
      expect(figures.undelivered).toBe(0);
      expect(figures.duplicates).toBeLessThanOrEqual(figures.maxDuplicates);
      for (const endpoint of Object.values(figures.endpoints)) {
        expect(endpoint.acknowledged).toBe(endpoint.expected);
        expect(endpoint.idsPerChange).toBe(1);
      }
      expect(figures.refused).toBeGreaterThan(0);
      expect(webhookKillHeld(figures)).toBe(true);
    },
    BACKSTOP_MS,
  );
});
