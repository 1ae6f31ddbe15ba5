// The marketplace: the listings, and per namespace its listing and past sales.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { BuyerPanel } from "../actions/buyer-panel.tsx";
import { api, unwrap } from "../api.ts";
import { amount, percent } from "../format.ts";
import { href } from "../routes.ts";
import {
  AccountLink,
  Defs,
  Details,
  ErrorNote,
  type Loaded,
  NamespaceLink,
  Page,
  Section,
  Table,
  useLoad,
  When,
} from "../ui.tsx";

const loadListings = () => unwrap(api.GET("/v1/market/listings"));
const loadSales = (node: string) =>
  unwrap(api.GET("/v1/market/history/{node}", { params: { path: { node } } }));
type Sales = Awaited<ReturnType<typeof loadSales>>;

export function MarketPage(): JSX.Element {
  const listings = useLoad("listings", loadListings);
  return (
    <Page title="Market listings">
      <Section
        loaded={listings}
        render={(m) => (
          <>
            <p>
              Namespaces for sale. Buying goes through the marketplace's escrow: it holds your payment until
              the namespace is yours, and pays the seller then.
            </p>
            <Table
              caption="Listings"
              captionHidden
              headings={["Namespace", "Price", "Market fee", "Listed", ""]}
              empty="Nothing is listed for sale."
              rows={m.listings.map((l) => [
                <NamespaceLink namespace={l.namespace} key="n" />,
                amount(l.priceXlm),
                percent(l.feeBps),
                <When at={l.listedAt} relative key="l" />,
                <a class="button" href={`${href.listing(l.namespace)}#buy`} key="b">
                  Buy {l.namespace}
                </a>,
              ])}
            />
            <Details>
              Escrow account: <AccountLink address={m.escrow} />
            </Details>
          </>
        )}
      />
    </Page>
  );
}

export function ListingPage({ namespace }: { readonly namespace: string }): JSX.Element {
  // Read again after the buyer's deposit or acceptance (BuyerPanel): the owner and the sales change.
  const [read, setRead] = useState(0);
  const listings = useLoad(`listings:${read}`, loadListings);
  const info = useLoad(`ns:${namespace}:${read}`, () =>
    unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace } } })),
  );
  // The listing as first seen: the buyer's panel stays while the page reads again, and after the sale (when the
  // listing has left the list) to show the acceptance's result.
  const [seen, setSeen] = useState<{ readonly namespace: string; readonly id: string } | null>(null);
  useEffect(() => {
    const l =
      listings.state === "ok" ? listings.value.listings.find((x) => x.namespace === namespace) : undefined;
    if (l !== undefined && seen?.namespace !== namespace) setSeen({ namespace, id: l.id });
  }, [listings.state, namespace]);
  // The buyer's acceptance the network included makes them the owner: said at once, until the mirror's read agrees
  // (it indexes the transfer a moment later; the stream then reads the namespace again).
  const [accepted, setAccepted] = useState<string | null>(null);
  useEffect(() => {
    if (info.state === "ok" && info.value.operator === accepted) setAccepted(null);
  }, [info]);
  // The sales are read by the namespace's node, from the namespace read above (once, not a second time here).
  const node = info.state === "ok" ? info.value.node : null;
  const history = useLoad(`sales:${node ?? ""}:${read}`, () =>
    node === null ? Promise.resolve(null) : loadSales(node),
  );
  const sales: Loaded<Sales> =
    info.state === "error"
      ? info
      : history.state === "error"
        ? history
        : history.state === "ok" && history.value !== null
          ? { state: "ok", value: history.value }
          : { state: "loading" };
  // A namespace that does not exist (or a marketplace that is off) is said once, not under every heading.
  const refusal =
    info.state === "error" && info.error.code === "namespace_not_found"
      ? info.error
      : listings.state === "error" && listings.error.code === "market_disabled"
        ? listings.error
        : null;
  if (refusal !== null)
    return (
      <Page title={`${namespace} on the market`}>
        <ErrorNote error={refusal} />
        <p>
          All <a href={href.market()}>listings</a>.
        </p>
      </Page>
    );
  return (
    <Page title={`${namespace} on the market`}>
      <p class="hint">
        Namespace <NamespaceLink namespace={namespace} />; all <a href={href.market()}>listings</a>.
      </p>
      <h2>Listing</h2>
      <Section
        loaded={listings}
        render={(m) => {
          const l = m.listings.find((x) => x.namespace === namespace);
          if (l === undefined) return <p>{namespace} is not listed for sale.</p>;
          return (
            <Defs
              items={[
                ["Price", amount(l.priceXlm)],
                ["Market fee", `${percent(l.feeBps)} of the price, paid by the seller`],
                ["Listed", <When at={l.listedAt} relative key="l" />],
                ["Paid through escrow", <AccountLink address={m.escrow} key="e" />],
              ]}
            />
          );
        }}
      />
      {seen?.namespace !== namespace ? null : (
        <BuyerPanel
          key={seen.id}
          listingId={seen.id}
          namespace={namespace}
          onChanged={(owner) => {
            if (owner !== undefined) setAccepted(owner);
            setRead((n) => n + 1);
          }}
        />
      )}
      <h2>Owner</h2>
      {accepted === null ? (
        <Section loaded={info} render={(n) => <AccountLink address={n.operator} />} />
      ) : (
        <AccountLink address={accepted} />
      )}
      <h2>Sales</h2>
      <Section
        loaded={sales}
        render={(h) => (
          <Table
            caption="Sales"
            captionHidden
            headings={["Price", "Seller", "Buyer", "Settled", "How"]}
            empty="No past sales."
            rows={h.sales.map((s) => [
              amount(s.priceXlm),
              <AccountLink address={s.seller} key="s" />,
              <AccountLink address={s.buyer} key="b" />,
              <When at={s.settledAt} key="s" />,
              s.badge === "escrow" ? "through the escrow" : s.badge,
            ])}
          />
        )}
      />
    </Page>
  );
}
