// A name: `label.namespace` — its answer first (where payments go, who holds it), then anchored sections Overview ·
// Records · Subnames · History · Manage, the holder's editing in place (an Edit per record or section) — or
// `child.label.namespace` (the subname's record under its parent, read from the subname routes). Each section loads
// on its own, so one refusal (an expired name's records, a namespace without a resolver) leaves the others
// readable; a name that does not exist is said once.
import type { JSX } from "preact";
import { HolderAddresses } from "../actions/holder-addresses.tsx";
import { HolderManage } from "../actions/holder-manage.tsx";
import { HolderRecords, type Records } from "../actions/holder-records.tsx";
import { HolderSubnames } from "../actions/holder-subnames.tsx";
import { api, NameregError, unwrap } from "../api.ts";
import { explain } from "../errors.ts";
import {
  AccountLink,
  Defs,
  ErrorNote,
  type Loaded,
  NameLink,
  NamespaceLink,
  Page,
  Section,
  Table,
  TxLink,
  UserText,
  useLoad,
  useLoadWhen,
  When,
} from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { ownership, timeline } from "../words.ts";
import { Glance, RecordsTable, SectionNav } from "./name-parts.tsx";
import { Subname } from "./subname.tsx";

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
  const record = useLoadWhen(`n:${key}`, history.state === "ok", () =>
    unwrap(api.GET("/v1/names/{namespace}/{label}", { params: { path } })),
  );
  // Whether the namespace has a resolver: without one the records are not asked (they would be 409 no_resolver).
  const namespace = useLoad(`ns:${props.namespace}`, () =>
    unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace: props.namespace } } })),
  );
  const resolver = namespace.state === "ok" ? namespace.value.resolverId !== null : null;
  const session = useSession();
  const asked = useLoadWhen(`r:${key}`, record.state === "ok" && resolver === true, () =>
    unwrap(api.GET("/v1/records/{namespace}/{label}", { params: { path } })),
  );
  const records: Loaded<Records> =
    resolver === false
      ? { state: "error", error: explain(new NameregError(409, { error: "no_resolver" })) }
      : asked;
  const live = record.state === "ok" || (record.state === "error" && record.error.code === "name_expired");
  const subnames = useLoadWhen(`s:${key}`, live, () =>
    unwrap(api.GET("/v1/subnames/{namespace}/{label}", { params: { path } })),
  );
  const refusal =
    namespace.state === "error"
      ? namespace.error
      : ((record.state === "error" ? record : history.state === "error" ? history : null)?.error ?? null);
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
  const holder = record.state === "ok" ? record.value.holder : null;
  // Editing is the signed-in holder's, in place: an Edit per record or section, one form open at a time.
  const editing = holder !== null && session?.account === holder;
  const sections: [string, string][] = [["overview", "Overview"]];
  if (recordsShown) sections.push(["records", "Records"]);
  if (issued) sections.push(["subnames", "Subnames"]);
  sections.push(["history", "History"]);
  if (editing) sections.push(["manage", "Manage"]);
  return (
    <Page title={props.name}>
      <p class="hint">
        In namespace <NamespaceLink namespace={props.namespace} />.
      </p>
      {recordsShown ? (
        <Glance
          name={props.name}
          holder={holder}
          expiresAt={record.state === "ok" ? record.value.expiresAt : undefined}
          records={records}
        />
      ) : null}
      <SectionNav sections={sections} />
      <section id="overview" aria-labelledby="overview-title">
        <h2 id="overview-title">Overview</h2>
        <Section
          loaded={record}
          render={(r) => (
            <Defs
              items={[
                ["Holder", <AccountLink address={r.holder} key="h" />],
                ["Ownership", ownership(r.ownership)],
                ["Storage", r.storage === "live" ? "Live: read from the chain as it is now" : r.storage],
                ["Expires", r.expiresAt === null ? "never" : <When at={r.expiresAt} relative key="e" />],
                [
                  "Issued",
                  <>
                    ledger {r.issuedLedger}
                    {r.issuedAt ? <When at={r.issuedAt} prefix=" (" suffix=")" /> : null}
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
      </section>
      {recordsShown ? (
        <section id="records" aria-labelledby="records-title">
          <h2 id="records-title">Records</h2>
          {records.state === "error" && records.error.code === "no_resolver" ? (
            // A fact about the namespace (409 no_resolver), not a failure: said plainly, not as an alert.
            <p data-code="no_resolver">{records.error.sentence}</p>
          ) : (
            <Section
              loaded={records}
              render={(rec) =>
                editing ? <HolderRecords name={props.name} records={rec} /> : <RecordsTable records={rec} />
              }
            />
          )}
          {holder !== null ? (
            <HolderAddresses
              name={props.name}
              namespace={props.namespace}
              label={props.label}
              holder={holder}
            />
          ) : null}
        </section>
      ) : null}
      {issued ? (
        <section id="subnames" aria-labelledby="subnames-title">
          <h2 id="subnames-title">Subnames</h2>
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
          {holder !== null ? (
            <HolderSubnames
              name={props.name}
              holder={holder}
              subnames={subnames.state === "ok" ? subnames.value.subnames : []}
              policy={subnames.state === "ok" ? subnames.value.policy : null}
            />
          ) : null}
        </section>
      ) : null}
      <section id="history" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
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
                  rest:{" "}
                  <a href={`/v1/events?subject=${encodeURIComponent(props.name)}`}>its events as JSON</a>.
                </p>
              ) : null}
            </>
          )}
        />
      </section>
      {editing ? (
        <section id="manage" aria-labelledby="manage-title">
          <h2 id="manage-title">Manage</h2>
          <HolderManage name={props.name} records={records.state === "ok" ? records.value : null} />
        </section>
      ) : null}
    </Page>
  );
}
