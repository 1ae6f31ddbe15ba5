// A name: `label.namespace` (resolution, records, its timeline of lifecycle and record changes, subnames) or
// `child.label.namespace` (the subname's record under its parent, read from the subname routes). Each section loads
// on its own, so one refusal (an expired name's records, a namespace without a resolver) leaves the others
// readable; a name that does not exist is said once.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { HolderAddresses } from "../actions/holder-addresses.tsx";
import { HolderRecords } from "../actions/holder-records.tsx";
import { HolderSubnames } from "../actions/holder-subnames.tsx";
import { api, NameregError, unwrap } from "../api.ts";
import { explain } from "../errors.ts";
import { recordLink } from "../format.ts";
import {
  AccountLink,
  Defs,
  ErrorNote,
  type Loaded,
  Mono,
  NameLink,
  NamespaceLink,
  Page,
  Section,
  Table,
  TxLink,
  UserLink,
  UserText,
  useLoad,
  useLoadWhen,
  When,
} from "../ui.tsx";
import { nameFlags, ownership, subnamePolicy, timeline } from "../words.ts";

/** Archived events of the name read for its timeline: one page of the archive's largest. */
const ARCHIVE_PAGE = 1000;

export function NamePage({ name }: { readonly name: string }): JSX.Element {
  const parts = name.split(".");
  if (parts.some((p) => p === "") || parts.length > 3)
    return (
      <Page title={name}>
        <ErrorNote error={explain(new NameregError(400, { error: "invalid_name", name }))} />
      </Page>
    );
  if (parts.length === 1)
    return (
      <Page title={name}>
        <p>
          A name reads label.namespace (e.g. alice.acme); “{name}” alone would be a namespace: see{" "}
          <NamespaceLink namespace={name} />.
        </p>
      </Page>
    );
  const [a = "", b = "", c] = parts;
  return c === undefined ? (
    <IssuedName name={name} label={a} namespace={b} />
  ) : (
    <Subname name={name} child={a} label={b} namespace={c} />
  );
}

function IssuedName(props: { name: string; label: string; namespace: string }): JSX.Element {
  const path = { namespace: props.namespace, label: props.label };
  const key = props.name;
  // The history first: a name that never existed is said from this one request, and nothing else is asked.
  const history = useLoad(`h:${key}`, () =>
    Promise.all([
      unwrap(api.GET("/v1/names/{namespace}/{label}/history", { params: { path } })),
      unwrap(api.GET("/v1/events", { params: { query: { subject: props.name, limit: ARCHIVE_PAGE } } })),
    ]),
  );
  const known = history.state === "ok";
  const record = useLoadWhen(`n:${key}`, known, () =>
    unwrap(api.GET("/v1/names/{namespace}/{label}", { params: { path } })),
  );
  // Whether the namespace has a resolver: without one the records are not asked (they would be 409 no_resolver).
  const namespace = useLoadWhen(`ns:${props.namespace}`, known, () =>
    unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace: props.namespace } } })),
  );
  const resolver = namespace.state === "ok" ? namespace.value.resolverId !== null : null;
  // Read again after the holder changes a record (HolderRecords).
  const [recordsRead, setRecordsRead] = useState(0);
  const noResolver: Loaded<RecordsAnswer> = {
    state: "error",
    error: explain(new NameregError(409, { error: "no_resolver", name: props.name })),
  };
  const asked = useLoadWhen(`r:${key}:${recordsRead}`, record.state === "ok" && resolver === true, () =>
    loadRecords(path),
  );
  const records = resolver === false ? noResolver : asked;
  // Read again after the holder changes a subname (HolderSubnames).
  const [subnamesRead, setSubnamesRead] = useState(0);
  const live = record.state === "ok" || (record.state === "error" && record.error.code === "name_expired");
  const subnames = useLoadWhen(`s:${key}:${subnamesRead}`, live, () =>
    unwrap(api.GET("/v1/subnames/{namespace}/{label}", { params: { path } })),
  );
  const refusal = record.state === "error" ? record.error : history.state === "error" ? history.error : null;
  const refused = refusal?.code ?? null;
  // Never issued, an unknown namespace or a segment that is no label (the server's one rule): one answer, not
  // four. A reclaimed name is not issued either, but it has a history, which is then all there is to show.
  if (refusal !== null && (refused === "namespace_not_found" || refused === "invalid_name"))
    return (
      <Page title={props.name}>
        <ErrorNote error={refusal} />
      </Page>
    );
  if (history.state === "error" && history.error.code === "name_not_found")
    return (
      <Page title={props.name}>
        <ErrorNote error={history.error} />
        <p>
          See the names of <NamespaceLink namespace={props.namespace} />.
        </p>
      </Page>
    );
  const issued = refused !== "name_not_issued";
  // An expired name's records answer the same name_expired as its record above: said once, there.
  const recordsShown = issued && refused !== "name_expired";
  return (
    <Page title={props.name}>
      <p class="hint">
        In namespace <NamespaceLink namespace={props.namespace} />.
      </p>
      <h2>Resolution</h2>
      <Section
        loaded={record}
        render={(r) => (
          <Defs
            items={[
              ["Holder", <AccountLink address={r.holder} key="h" />],
              ["Ownership", ownership(r.ownership)],
              ["Storage", r.storage === "live" ? "Live: read from the chain as it is now" : r.storage],
              ["Expires", r.expiresAt === null ? "never" : <When at={r.expiresAt} key="e" />],
              [
                "Issued",
                <>
                  ledger {r.issuedLedger}
                  {r.issuedAt ? (
                    <>
                      {" ("}
                      <When at={r.issuedAt} />
                      {")"}
                    </>
                  ) : null}
                  {", transaction "}
                  <TxLink hash={r.txHash} />
                </>,
              ],
              ["Resolutions", String(r.resolutions)],
              [
                "Operator",
                <>
                  {r.operatorName === "" ? null : (
                    <>
                      <UserText text={r.operatorName} />
                      {" · "}
                    </>
                  )}
                  <AccountLink address={r.operator} />
                </>,
              ],
            ]}
          />
        )}
      />
      {recordsShown ? (
        <>
          <h2>Records</h2>
          {records.state === "error" && records.error.code === "no_resolver" ? (
            // A fact about the namespace (409 no_resolver), not a failure: said plainly, not as an alert.
            <p data-code="no_resolver">{records.error.sentence}</p>
          ) : (
            <Section loaded={records} render={(rec) => <RecordsTable records={rec} />} />
          )}
          {record.state === "ok" ? (
            <HolderRecords
              name={props.name}
              holder={record.value.holder}
              records={records.state === "ok" ? records.value : null}
              onChanged={() => setRecordsRead((n) => n + 1)}
            />
          ) : null}
          {record.state === "ok" ? (
            <HolderAddresses
              name={props.name}
              namespace={props.namespace}
              label={props.label}
              holder={record.value.holder}
            />
          ) : null}
        </>
      ) : null}
      <h2>History</h2>
      <Section
        loaded={history}
        render={([lifecycle, archived]) => (
          <>
            <Table
              caption="History"
              captionHidden
              headings={["What", "Ledger", "Time", "Transaction"]}
              rows={timeline(lifecycle.events, archived.events).map((row) => [
                row.what,
                String(row.ledger),
                row.at === null ? "—" : <When at={row.at} key="w" />,
                <TxLink hash={row.txHash} key="t" />,
              ])}
            />
            {archived.hasMore ? (
              <p class="hint">
                Only the first {ARCHIVE_PAGE} archived events of this name are shown; the archive has the
                rest: <a href={`/v1/events?subject=${encodeURIComponent(props.name)}`}>its events as JSON</a>.
              </p>
            ) : null}
          </>
        )}
      />
      {issued ? (
        <>
          <h2>Subnames</h2>
          <Section
            loaded={subnames}
            render={(s) => (
              <Table
                caption="Subnames"
                captionHidden
                headings={["Name", "State", "Address"]}
                empty="This name has no subnames."
                rows={s.subnames.map((sub) => [
                  <NameLink name={sub.name} key="n" />,
                  sub.active ? "active" : sub.exists ? "inactive" : "removed",
                  <AccountLink address={sub.address} key="a" />,
                ])}
              />
            )}
          />
          {record.state === "ok" ? (
            <HolderSubnames
              name={props.name}
              holder={record.value.holder}
              subnames={subnames.state === "ok" ? subnames.value.subnames : []}
              policy={subnames.state === "ok" ? subnames.value.policy : null}
              onChanged={() => setSubnamesRead((n) => n + 1)}
            />
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

type RecordsAnswer = Awaited<ReturnType<typeof loadRecords>>;
const loadRecords = (path: { namespace: string; label: string }) =>
  unwrap(api.GET("/v1/records/{namespace}/{label}", { params: { path } }));

/** The name's records: its pay-to address, its text records (web addresses as links) and what the address calls it. */
function RecordsTable({ records }: { readonly records: RecordsAnswer }): JSX.Element {
  const flags = nameFlags(records);
  return (
    <>
      <Table
        caption="Records"
        captionHidden
        headings={["Key", "Value"]}
        rows={[
          ["address", records.address === null ? "—" : <AccountLink address={records.address} key="a" />],
          ...Object.entries(records.text).map(([k, v]) => {
            const link = recordLink(k, v);
            return [k, link === null ? <UserText text={v} key="v" /> : <UserLink value={v} key="v" />];
          }),
        ]}
      />
      <p class="breakable">
        {flags.display}
        {flags.display === flags.primary ? null : ` ${flags.primary}`}
      </p>
    </>
  );
}

function Subname(props: { name: string; child: string; label: string; namespace: string }): JSX.Element {
  const path = { namespace: props.namespace, label: props.label, child: props.child };
  const answer = useLoad(`sub:${props.name}`, () => loadSubname(path));
  return (
    <Page title={props.name}>
      <p class="hint">
        A subname of <NameLink name={`${props.label}.${props.namespace}`} />, in namespace{" "}
        <NamespaceLink namespace={props.namespace} />.
      </p>
      {answer.state === "error" ? (
        // One refusal (no such parent, no such namespace) is said once, not under each heading.
        <ErrorNote error={answer.error} />
      ) : (
        <SubnameSections answer={answer} child={props.child} />
      )}
    </Page>
  );
}

type SubnameAnswer = Awaited<ReturnType<typeof loadSubname>>;
const loadSubname = (path: { namespace: string; label: string; child: string }) =>
  unwrap(api.GET("/v1/subnames/{namespace}/{label}/{child}", { params: { path } }));

function SubnameSections(props: { answer: Loaded<SubnameAnswer>; child: string }): JSX.Element {
  const { answer } = props;
  return (
    <>
      <h2>Subname</h2>
      <Section
        loaded={answer}
        render={(s) =>
          s.record === null ? (
            <p>
              No subname “{props.child}” has ever been set under <NameLink name={s.parent} />.
            </p>
          ) : (
            <Defs
              items={[
                ["State", s.record.active ? "active" : s.record.exists ? "inactive" : "removed"],
                ["Pays to", <AccountLink address={s.record.address} key="a" />],
                [
                  "Controller",
                  s.record.controller === null ? "—" : <AccountLink address={s.record.controller} key="c" />,
                ],
                ["Expires", s.record.expiresAt === null ? "never" : <When at={s.record.expiresAt} key="e" />],
                ["Policy", subnamePolicy(s.record.policy)],
                ["Generation", <Mono key="g">{s.record.generation}</Mono>],
              ]}
            />
          )
        }
      />
      <h2>Parent</h2>
      <Section
        loaded={answer}
        render={(s) => (
          <Defs
            items={[
              ["Name", <NameLink name={s.parentContext.name} key="p" />],
              ["Holder", <AccountLink address={s.parentContext.holder} key="h" />],
              ["Active", s.parentContext.active ? "yes" : "no"],
              [
                "Expires",
                s.parentContext.expiresAt === null ? (
                  "never"
                ) : (
                  <When at={s.parentContext.expiresAt} key="e" />
                ),
              ],
            ]}
          />
        )}
      />
    </>
  );
}
