// A namespace: who runs it, its policies, its claim (if one is in the queue) and its listing (if for sale).
import type { JSX } from "preact";
import { OwnerPolicies } from "../actions/owner-policies.tsx";
import { api, unwrap } from "../api.ts";
import { href } from "../routes.ts";
import { AccountLink, Defs, Page, Section, useLoad } from "../ui.tsx";

export function NamespacePage({ namespace }: { readonly namespace: string }): JSX.Element {
  const info = useLoad(`ns:${namespace}`, () =>
    unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace } } })),
  );
  const claims = useLoad("allocations", () => unwrap(api.GET("/v1/allocations")));
  return (
    <Page title={namespace}>
      <h2>Namespace</h2>
      <Section
        loaded={info}
        render={(n) => (
          <Defs
            items={[
              ["Display name", n.displayName ?? "—"],
              ["Operator", <AccountLink address={n.operator} key="o" />],
              ["Names issued", String(n.issuedNames)],
              ["Subname policy", n.subnamePolicy],
              ["Issuing method", n.method],
              ["Awarded", `ledger ${n.awardLedger}${n.awardedAt ? ` (${n.awardedAt})` : ""}`],
              ["Resolver", n.resolverId ?? "none (names carry no records)"],
              ["Networks", n.chainNetworks.length === 0 ? "—" : n.chainNetworks.join(", ")],
              ["Locked", n.locked ? "yes" : "no"],
              [
                "Market",
                <a href={href.listing(namespace)} key="m">
                  listing and sales
                </a>,
              ],
            ]}
          />
        )}
      />
      <h2>Claims</h2>
      <Section
        loaded={claims}
        render={(q) => {
          const mine = [...q.pending, ...q.objected, ...q.awarded].filter((c) => c.namespace === namespace);
          if (mine.length === 0) return <p>No claim for this namespace is in the queue.</p>;
          return (
            <ul>
              {mine.map((c) => (
                <li key={c.id}>
                  {c.state} claim by <AccountLink address={c.claimantAccount} />, announced at ledger{" "}
                  {c.announcedLedger} — <a href={href.claims()}>claim queue</a>
                </li>
              ))}
            </ul>
          );
        }}
      />
      <OwnerPolicies namespace={namespace} />
    </Page>
  );
}
