// A namespace: who owns it and its subname policy first, then anchored sections — Overview (its policies in words,
// how it was allocated, its contracts) · For sale (its listing) · Names (paged, each with its subnames) · Claims (its
// claim if one is in the queue) — and Manage for its signed-in owner: policy, networks, billing, selling, webhooks
// (owner-policies.tsx). Billing is between the owner and the service and no public route shows it.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { OwnerPolicies } from "../actions/owner-policies.tsx";
import { api, isNameregError, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { amount } from "../format.ts";
import { href } from "../routes.ts";
import {
  AccountLink,
  ClaimLink,
  ContractLink,
  Defs,
  Details,
  ErrorNote,
  ListingLink,
  NameLink,
  Page,
  Section,
  Table,
  UserText,
  useLoad,
  When,
} from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { claimState, subnamePolicy } from "../words.ts";
import { SectionNav } from "./name-parts.tsx";

const loadNames = (namespace: string, cursor: string | undefined) =>
  unwrap(
    api.GET("/v1/namespaces/{namespace}/names", {
      params: { path: { namespace }, query: cursor === undefined ? {} : { cursor } },
    }),
  );
type NamesPage = Awaited<ReturnType<typeof loadNames>>;

export function NamespacePage({ namespace }: { readonly namespace: string }): JSX.Element {
  const session = useSession();
  const info = useLoad(`ns:${namespace}`, () => loadNamespace(namespace));
  const claims = useLoad("allocations", () => unwrap(api.GET("/v1/allocations")));
  // One answer for a namespace that is not allocated (yet): the sections that need it would each repeat it. A
  // name that is no namespace at all (invalid_name) is said once too, and nothing else: no claim can be for it.
  const refused = info.state === "error" ? info.error.code : null;
  const invalid = refused === "invalid_name";
  const missing = info.state === "error" && (invalid || refused === "namespace_not_found");
  const owner = info.state === "ok" && session !== null && session.account === info.value.operator;
  const sections: [string, string][] = missing
    ? []
    : [
        ["overview", "Overview"],
        ["for-sale", "For sale"],
        ["names", "Names"],
      ];
  if (!invalid) sections.push(["claims", "Claims"]);
  if (owner) sections.push(["manage", "Manage"]);
  return (
    <Page title={namespace}>
      {info.state === "ok" && info.value.displayName !== null ? (
        <p class="hint">
          <UserText text={info.value.displayName} />
        </p>
      ) : null}
      {missing ? (
        <ErrorNote error={info.error} />
      ) : (
        <>
          {info.state === "ok" ? (
            <div class="glance" data-glance>
              <p>
                <strong>Owned by: </strong>
                <AccountLink address={info.value.operator} />
              </p>
              <p>
                <strong>Subnames: </strong>
                {subnamePolicy(info.value.subnamePolicy)}
                {`. Names issued: ${info.value.issuedNames}.`}
              </p>
            </div>
          ) : null}
          <SectionNav sections={sections} />
          <section id="overview" aria-labelledby="overview-title">
            <h2 id="overview-title">Overview</h2>
            <Section loaded={info} render={(n) => <Overview n={n} />} />
          </section>
          <section id="for-sale" aria-labelledby="for-sale-title">
            <h2 id="for-sale-title">For sale</h2>
            <Listing namespace={namespace} />
          </section>
          <section id="names" aria-labelledby="names-title">
            <h2 id="names-title">Names</h2>
            <Names namespace={namespace} />
          </section>
        </>
      )}
      {invalid ? null : (
        <section id="claims" aria-labelledby="claims-title">
          <h2 id="claims-title">Claims</h2>
          <Section
            loaded={claims}
            render={(q) => {
              const mine = [...q.pending, ...q.objected, ...q.awarded].filter(
                (c) => c.namespace === namespace,
              );
              if (mine.length === 0) return <p>No claim for this namespace is in the queue.</p>;
              return (
                <ul>
                  {mine.map((c) => (
                    <li key={c.id}>
                      <ClaimLink id={c.id}>Claim {c.id}</ClaimLink>: {claimState(c.state)}, by{" "}
                      <AccountLink address={c.claimantAccount} />, announced at ledger {c.announcedLedger}
                    </li>
                  ))}
                </ul>
              );
            }}
          />
        </section>
      )}
      {missing ? null : <OwnerPolicies namespace={namespace} />}
    </Page>
  );
}

type NamespaceAnswer = Awaited<ReturnType<typeof loadNamespace>>;
const loadNamespace = (namespace: string) =>
  unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace } } }));

/**
 * The namespace in full: owner, policies in words, how it was allocated; its contracts' ids (machine values, each a
 * link to its events) under Details, after the words.
 */
function Overview({ n }: { readonly n: NamespaceAnswer }): JSX.Element {
  return (
    <>
      <Defs
        items={[
          ["Owner", <AccountLink address={n.operator} key="o" />],
          ["Names issued", String(n.issuedNames)],
          ["Subnames", subnamePolicy(n.subnamePolicy)],
          [
            "Networks",
            n.resolverId === null
              ? "None: without a resolver, names keep no records"
              : n.chainNetworks.length === 0
                ? "None: names keep no addresses on other networks"
                : `Names may keep addresses on ${n.chainNetworks.join(", ")}`,
          ],
          [
            "Routing",
            n.locked
              ? "Locked: names without expiry are permanent"
              : "Not locked: the owner may still reclaim names",
          ],
          [
            "Allocated",
            <>
              {`${n.method === "allocate" ? "won through a claim" : "reserved by the operator"}, ledger ${
                n.awardLedger
              }`}
              {n.awardedAt ? (
                <>
                  {" ("}
                  <When at={n.awardedAt} />
                  {")"}
                </>
              ) : null}
            </>,
          ],
        ]}
      />
      <Details summary="Details: the namespace's contracts">
        <Defs
          items={[
            ["Registrar", <ContractLink id={n.registrarId} key="r" />],
            ["Resolver", n.resolverId === null ? "none" : <ContractLink id={n.resolverId} key="v" />],
          ]}
        />
      </Details>
    </>
  );
}

/** The namespace's open listing, if any; the marketplace being off is a fact here, not a failure. */
function Listing({ namespace }: { readonly namespace: string }): JSX.Element {
  const listings = useLoad("listings", () =>
    unwrap(api.GET("/v1/market/listings")).then(
      (m) => m.listings,
      (error: unknown) => {
        if (isNameregError(error, "market_disabled")) return null;
        throw error;
      },
    ),
  );
  return (
    <Section
      loaded={listings}
      render={(list) => {
        if (list === null) return <p>The marketplace is off on this service.</p>;
        const open = list.find((l) => l.namespace === namespace);
        return open === undefined ? (
          <p>
            Not listed for sale. <ListingLink namespace={namespace}>Past sales</ListingLink>.
          </p>
        ) : (
          <p>
            Listed at {amount(open.priceXlm)} since <When at={open.listedAt} />:{" "}
            <ListingLink namespace={namespace}>the listing</ListingLink>.
          </p>
        );
      }}
    />
  );
}

/** The names issued in the namespace, a page at a time (keyset pages of the API, followed on request). */
function Names({ namespace }: { readonly namespace: string }): JSX.Element {
  const first = useLoad(`names:${namespace}`, () => loadNames(namespace, undefined));
  const [more, setMore] = useState<{
    pages: readonly NamesPage[];
    loading: boolean;
    error: Explained | null;
  }>({ pages: [], loading: false, error: null });
  return (
    <Section
      loaded={first}
      render={(page) => {
        const pages = [page, ...more.pages];
        const names = pages.flatMap((p) => p.names);
        const next = pages.at(-1)?.nextCursor ?? null;
        const showMore = () => {
          if (next === null) return;
          setMore({ ...more, loading: true, error: null });
          loadNames(namespace, next).then(
            (p) => setMore({ pages: [...more.pages, p], loading: false, error: null }),
            (e: unknown) => setMore({ ...more, loading: false, error: explain(e) }),
          );
        };
        return (
          <>
            <Table
              caption="Names issued"
              captionHidden
              headings={["Name", "Holder", "Expires", "Subnames", "Issued"]}
              empty="No name has been issued in this namespace."
              rows={names.map((n) => [
                <NameLink name={n.name} key="n" />,
                <AccountLink address={n.holder} key="h" />,
                n.expiresAt === null ? (
                  "never"
                ) : (
                  <>
                    {n.expired ? "expired " : null}
                    <When at={n.expiresAt} />
                  </>
                ),
                n.subnames === 0 ? (
                  "none"
                ) : (
                  <a href={href.name(n.name)} key="s">
                    {n.subnames === 1 ? "1 subname" : `${n.subnames} subnames`}
                  </a>
                ),
                <>
                  ledger {n.issuedLedger}
                  {n.issuedAt ? (
                    <>
                      {" ("}
                      <When at={n.issuedAt} />
                      {")"}
                    </>
                  ) : null}
                </>,
              ])}
            />
            {more.error === null ? null : <ErrorNote error={more.error} />}
            {next === null ? null : (
              <button type="button" onClick={showMore} disabled={more.loading}>
                {more.loading ? "Loading…" : "Show more names"}
              </button>
            )}
          </>
        );
      }}
    />
  );
}
