// A transaction: what it did, read from the event archive (GET /v1/events?txHash=), so every transaction hash the
// app shows can be followed. Each event is named by its type in words; the raw topics and data stay in the API's
// answer (linked), since the page ships no XDR decoder.
import type { JSX } from "preact";
import { api, unwrap } from "../api.ts";
import { eventContract, eventType } from "../event-words.ts";
import { href } from "../routes.ts";
import { ContractLink, Details, ErrorNote, Mono, Page, Section, Table, useLoad, When } from "../ui.tsx";

const HASH = /^[0-9a-f]{64}$/;
/** The events of one transaction are few; one page of the archive's largest holds them. */
const PAGE = 1000;

export function TransactionPage({ hash }: { readonly hash: string }): JSX.Element {
  const title = `Transaction ${hash.slice(0, 8)}…`;
  if (!HASH.test(hash))
    return (
      <Page title="Transaction">
        <ErrorNote
          error={{
            code: "invalid_request",
            sentence: "That is not a transaction hash: a hash is 64 hexadecimal digits.",
            detail: undefined,
          }}
        />
      </Page>
    );
  return <KnownTransaction hash={hash} title={title} />;
}

function KnownTransaction({ hash, title }: { readonly hash: string; readonly title: string }): JSX.Element {
  const events = useLoad(`tx:${hash}`, () =>
    unwrap(api.GET("/v1/events", { params: { query: { txHash: hash, limit: PAGE } } })),
  );
  const json = `/v1/events?txHash=${hash}`;
  return (
    <Page title={title}>
      <p>
        <Mono>{hash}</Mono>
      </p>
      <Section
        loaded={events}
        render={(page) => {
          const first = page.events[0];
          if (first === undefined)
            return (
              <p>
                The archive holds no event of this transaction: it emitted none from the contracts this
                service follows
                {page.coverage.complete ? "" : ", or it falls in a part of the chain the archive lacks"}.
              </p>
            );
          return (
            <>
              <p>
                In ledger {first.ledger}
                {first.at === null ? null : (
                  <>
                    {" ("}
                    <When at={first.at} />
                    {")"}
                  </>
                )}
                ; {page.events.length} {page.events.length === 1 ? "event" : "events"}
                {page.hasMore ? " shown, more in the archive" : ""}.
              </p>
              <Table
                caption="Events of this transaction"
                headings={["What", "Contract", "Applied"]}
                rows={page.events.map((e) => {
                  // The contract as what it is, a link to its events; its id under Details below.
                  const kind = eventContract(e.type);
                  return [
                    eventType(e.type),
                    kind === null ? (
                      <ContractLink id={e.contractId} key="c" />
                    ) : (
                      <a href={href.contract(e.contractId)} key="c">
                        {kind}
                      </a>
                    ),
                    e.inSuccessfulContractCall ? "yes" : "no: the call failed",
                  ];
                })}
              />
              <Details>
                <p>
                  Event types as the contracts name them, in order:{" "}
                  <Mono>{page.events.map((e) => e.type ?? "—").join(", ")}</Mono>.
                </p>
                <p>
                  Contracts, in the same order: <Mono>{page.events.map((e) => e.contractId).join(", ")}</Mono>
                  .
                </p>
                <p>
                  Topics and data as the chain encoded them: <a href={json}>these events as JSON</a>.
                </p>
              </Details>
            </>
          );
        }}
      />
    </Page>
  );
}
