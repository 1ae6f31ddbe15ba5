// The failover suite in `npm test` (suite.ts; the same run as bench/failover/run.ts, 5 s of traffic before and after
// the loss): two PostgreSQL members under Patroni, etcd and HAProxy from Debian's packages (`apt-get install patroni
// etcd-server etcd-client haproxy`), `namereg start` through HAProxy, the leader's machine lost while a wallet writes
// and clients read, the old leader restarted. About 75 s on the 2-core development machine at load 9–16.
import { BACKSTOP_MS } from "@namereg/server/testing";
import { expect, it } from "vitest";
import { runFailoverSuite } from "./suite.ts";

it(
  "loses the PostgreSQL leader while a wallet writes and clients read: nothing lost or doubled, the cached name answering, the old leader rejoining",
  async () => {
    // Generous here, where other test files share the two cores (the full run holds 10 s; it measured 2.0–2.5 s).
    const r = await runFailoverSuite({ resumeBoundSeconds: 20 });
    // A new leader, and indexing resumed after it.
    expect(r.newLeader).not.toBeNull();
    expect(r.newLeader).not.toBe(r.killed);
    expect(r.resumedSeconds).not.toBeNull();
    // Every change archived once, carried once by the stream and once (by webhook-id) to the endpoint.
    expect(r.written).toBeGreaterThan(0);
    expect([r.archivedOnce, r.archivedTwice]).toEqual([r.written, 0]);
    expect([r.streamReceived, r.streamDuplicates]).toEqual([r.written, 0]);
    expect(r.webhookIds).toBe(r.written);
    // Readers: only 200 or a well-formed 503; the outage was seen; the name resolved before it always 200.
    expect(r.bad).toEqual([]);
    expect(Object.keys(r.routes["/v1/resolve/acme/alice"] ?? {})).toEqual(["200"]);
    expect(r.routes["/v1/names/acme/bob"]?.["503"]).toBeGreaterThan(0);
    // The old leader is a replica again, and every component operational.
    expect(r.rejoinedAs).toBe("replica");
    expect(Object.values(r.finalStatus).every((state) => state === "operational")).toBe(true);
    expect(r.failures).toEqual([]);
  },
  BACKSTOP_MS,
);
