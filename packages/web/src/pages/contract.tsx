// A contract: the events it emitted, from the event archive (GET /v1/events?contractId=), oldest first as the
// archive keeps them, a page at a time. Namespace pages link their registrar and resolver here, and a
// transaction's page each event's contract. The raw topics and data stay in the API's answer (linked).
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { eventContract, eventType } from "../event-words.ts";
import { href } from "../routes.ts";
import { Details, ErrorNote, Mono, Page, Section, Table, TxLink, useLoad, When } from "../ui.tsx";

/** A Soroban contract id (strkey, C…, 56 characters). */
const CONTRACT = /^C[A-Z2-7]{55}$/;
const PAGE = 100;

const loadEvents = (contractId: string, cursor: string | undefined) =>
  unwrap(
    api.GET("/v1/events", {
      params: { query: { contractId, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) } },
    }),
  );
type EventsPage = Awaited<ReturnType<typeof loadEvents>>;

export function ContractPage({ id }: { readonly id: string }): JSX.Element {
  if (!CONTRACT.test(id))
    return (
      <Page title="Contract">
        <ErrorNote
          error={{
            code: "invalid_request",
            sentence: "That is not a contract id: a contract id is C followed by 55 letters and digits.",
            detail: undefined,
          }}
        />
      </Page>
    );
  return <KnownContract id={id} />;
}

function KnownContract({ id }: { readonly id: string }): JSX.Element {
  const first = useLoad(`contract:${id}`, () => loadEvents(id, undefined));
  const [more, setMore] = useState<{
    pages: readonly EventsPage[];
    loading: boolean;
    error: Explained | null;
  }>({ pages: [], loading: false, error: null });
  // Named as what it is once its events say (each type is one contract's: event-words.ts), its id under Details.
  const said =
    first.state === "ok"
      ? (first.value.events.map((e) => eventContract(e.type)).find((c) => c !== null) ?? null)
      : null;
  return (
    <Page title={said ?? "Contract"}>
      <Details>
        Contract id <Mono>{id}</Mono>
      </Details>
      <h2>Events</h2>
      <Section
        loaded={first}
        render={(page) => {
          const pages = [page, ...more.pages];
          const events = pages.flatMap((p) => p.events);
          const last = pages.at(-1);
          const next = last?.hasMore ? last.nextCursor : null;
          const showMore = () => {
            if (next === null) return;
            setMore({ ...more, loading: true, error: null });
            loadEvents(id, next).then(
              (p) => setMore({ pages: [...more.pages, p], loading: false, error: null }),
              (e: unknown) => setMore({ ...more, loading: false, error: explain(e) }),
            );
          };
          return (
            <>
              <Table
                caption="Events of this contract, oldest first"
                headings={["What", "Ledger", "Time", "Transaction"]}
                empty="The archive holds no event of this contract."
                rows={events.map((e) => [
                  eventType(e.type),
                  String(e.ledger),
                  e.at === null ? "—" : <When at={e.at} key="w" />,
                  <TxLink hash={e.txHash} key="t" />,
                ])}
              />
              {more.error === null ? null : <ErrorNote error={more.error} />}
              {next === null ? null : (
                <button type="button" onClick={showMore} disabled={more.loading}>
                  {more.loading ? "Loading…" : "Show more events"}
                </button>
              )}
              <p class="hint">
                Topics and data as the chain encoded them:{" "}
                <a href={href.contractEvents(id)}>these events as JSON</a>.
              </p>
            </>
          );
        }}
      />
    </Page>
  );
}
