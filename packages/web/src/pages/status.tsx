// The front page: whether the service is healthy, and how much of the chain the mirror has read.
import type { JSX } from "preact";
import { api, unwrap } from "../api.ts";
import { Defs, Page, Section, State, Table, useLoad, When } from "../ui.tsx";
import { componentDetails } from "../words.ts";

export function StatusPage(): JSX.Element {
  const loaded = useLoad("status", () =>
    Promise.all([unwrap(api.GET("/v1/status")), unwrap(api.GET("/v1/coverage"))]),
  );
  return (
    <Page title="Service status">
      <Section
        loaded={loaded}
        render={([status, coverage]) => {
          const all = status.components.every((c) => c.state === "operational");
          return (
            <>
              <p class="summary" id="status-summary">
                {all ? "All systems operational" : "Some components need attention"}
                {status.ledger === null ? "" : ` · ledger ${status.ledger}`}
              </p>
              <Table
                caption="Components"
                headings={["Component", "State", "Details"]}
                rows={status.components.map((c) => [
                  // The API's names verbatim ("the service RPC" is the spec's), starting a line as a sentence does.
                  c.name.charAt(0).toUpperCase() + c.name.slice(1),
                  <State state={c.state} key="s" />,
                  // In words, not field names; a component with nothing more to say reads "—".
                  componentDetails(c),
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
