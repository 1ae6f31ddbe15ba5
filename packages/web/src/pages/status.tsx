// The front page: whether the service is healthy, and how much of the chain the mirror has read.
import type { JSX } from "preact";
import { api, unwrap } from "../api.ts";
import { Defs, Page, Section, State, Table, useLoad } from "../ui.tsx";

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
                  c.name,
                  <State state={c.state} key="s" />,
                  // A component with nothing more to say reads "—", not an empty "Details:" on a phone.
                  Object.entries(c)
                    .filter(([k, v]) => k !== "name" && k !== "state" && v !== null)
                    .map(([k, v]) => `${k}: ${String(v)}`)
                    .join(", ") || "—",
                ])}
              />
              <section aria-labelledby="coverage-title">
                <h2 id="coverage-title">Coverage</h2>
                <Defs
                  items={[
                    ["Complete", coverage.complete ? "yes" : "no"],
                    ["Processed ledger", String(coverage.processedLedger ?? "—")],
                    ["Head ledger", String(coverage.headLedger ?? "—")],
                    ["Processed at", coverage.processedAt ?? "—"],
                    ["Gaps", String(coverage.gaps.length)],
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
