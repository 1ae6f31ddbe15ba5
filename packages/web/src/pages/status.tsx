// The front page: whether the service is healthy, and how much of the chain the mirror has read. Live like the other
// pages (a change heard moves the processed ledger: live/topics.ts), and also polled: a component's state and the
// coverage change without any change on the chain (an RPC going down, the indexer catching up on empty ledgers).
import type { JSX } from "preact";
import { api, unwrap } from "../api.ts";
import { useClock } from "../live/clock.ts";
import type { Polling } from "../live/query.ts";
import { Defs, Page, Section, State, Table, useLoad, When } from "../ui.tsx";
import { componentDetails, componentName, statusSummary } from "../words.ts";

/**
 * Every 5 s: a ledger closes about every 5 s, and the service calls a failing RPC read trouble after 5 s
 * (docs/api.md "GET /v1/status"), so reading more often would show nothing new; each read is two requests (the
 * status asks the RPC, with a 3 s deadline, and the database), 24 a minute, 4 % of the default per-address
 * limit (RATE_LIMIT_PER_MINUTE 600). A change heard asks again within 2 s: an indexer catching up sends many changes
 * a second, and costs one read per 2 s, not one per change.
 */
const POLLING: Polling = { everyMs: 5_000, gapMs: 2_000 };
/** "Processed at … (12 seconds ago)" and "last progress …" are said to the second. */
const TICK_MS = 1_000;

const loadStatus = () => Promise.all([unwrap(api.GET("/v1/status")), unwrap(api.GET("/v1/coverage"))]);

export function StatusPage(): JSX.Element {
  const loaded = useLoad("status", loadStatus, POLLING);
  const now = useClock(TICK_MS);
  return (
    <Page title="Service status">
      <Section
        loaded={loaded}
        render={([status, coverage], stale) => {
          const all = status.components.every((c) => c.state === "operational");
          const readAt = stale === undefined ? now : Date.parse(stale.readAt);
          return (
            <>
              <p class="summary" id="status-summary">
                {statusSummary(all, status.ledger, stale !== undefined)}
              </p>
              <Table
                caption="Components"
                headings={["Component", "State", "Details"]}
                rows={status.components.map((c) => [
                  // In words: the API's "the service RPC" is the connection to the Stellar network.
                  componentName(c.name),
                  <State state={c.state} key="s" />,
                  // In words, not field names; a component with nothing more to say reads "—".
                  componentDetails(c, now, readAt),
                ])}
              />
              <section aria-labelledby="coverage-title">
                <h2 id="coverage-title">Coverage</h2>
                <Defs
                  items={[
                    [
                      "Complete",
                      coverage.complete
                        ? "yes"
                        : coverage.gaps.length > 0
                          ? "no: the archive lacks part of the chain"
                          : "no: the indexer has not reported lately",
                    ],
                    ["Processed ledger", String(coverage.processedLedger ?? "—")],
                    ["Head ledger", String(coverage.headLedger ?? "—")],
                    [
                      "Processed at",
                      coverage.processedAt === null ? (
                        "—"
                      ) : (
                        <When at={coverage.processedAt} relative key="p" />
                      ),
                    ],
                    [
                      "Gaps",
                      coverage.gaps.length === 0
                        ? "none"
                        : coverage.gaps
                            .map((g) => `ledgers ${g.fromLedger}–${g.toLedger} (${g.reason})`)
                            .join("; "),
                    ],
                  ]}
                />
              </section>
            </>
          );
        }}
      />
    </Page>
  );
}
