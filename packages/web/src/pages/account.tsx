// An account: the names it holds, its primary name (reverse resolution) and the claims it announced.
import type { JSX } from "preact";
import { api, isNameregError, NameregError, unwrap } from "../api.ts";
import { explain } from "../errors.ts";
import {
  AccountLink,
  ClaimLink,
  ErrorNote,
  NameLink,
  NamespaceLink,
  Page,
  Section,
  Table,
  useLoad,
  When,
} from "../ui.tsx";
import { claimState } from "../words.ts";

/** What the holder and reverse routes accept (docs/api.md): an account (G…) or a contract (C…), 56 characters. */
const ADDRESS = /^[GC][A-Z2-7]{55}$/;

export function AccountPage({ address }: { readonly address: string }): JSX.Element {
  // Not an address: say so once, instead of two refusals and a claims section that reads "no claim".
  if (!ADDRESS.test(address))
    return (
      <Page title="Account">
        <ErrorNote error={explain(new NameregError(400, { error: "bad_address", address }))} />
      </Page>
    );
  return <KnownAccount address={address} />;
}

function KnownAccount({ address }: { readonly address: string }): JSX.Element {
  const path = { address };
  const held = useLoad(`held:${address}`, () =>
    unwrap(api.GET("/v1/names/by-holder/{address}", { params: { path } })),
  );
  // No primary name is an answer here, not a failure.
  const primary = useLoad(`rev:${address}`, () =>
    unwrap(api.GET("/v1/reverse/{address}", { params: { path } })).then(
      (r) => r.name as string | null,
      (error: unknown) => {
        if (isNameregError(error, "no_name")) return null;
        throw error;
      },
    ),
  );
  const claims = useLoad("allocations", () => unwrap(api.GET("/v1/allocations")));
  return (
    // A title per account, so tabs and history entries of several accounts tell apart.
    <Page title={`Account ${address.slice(0, 4)}…${address.slice(-4)}`}>
      <p>
        <AccountLink address={address} />
      </p>
      <h2>Primary name</h2>
      <Section
        loaded={primary}
        render={(name) => (name === null ? <p>No primary name is set.</p> : <NameLink name={name} />)}
      />
      <h2>Names held</h2>
      <Section
        loaded={held}
        render={(h) => (
          <>
            <Table
              caption="Names held"
              captionHidden
              headings={["Name", "Namespace", "Issued"]}
              empty="This account holds no names."
              rows={h.names.map((n) => [
                <NameLink name={n.name} key="n" />,
                <NamespaceLink namespace={n.namespace} key="ns" />,
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
            {h.truncated ? <p class="hint">Only the first names are shown.</p> : null}
          </>
        )}
      />
      <h2>Claims</h2>
      <Section
        loaded={claims}
        render={(q) => {
          const mine = [...q.pending, ...q.objected, ...q.awarded].filter(
            (c) => c.claimantAccount === address,
          );
          return (
            <Table
              caption="Claims announced"
              headings={["Claim", "Namespace", "State", "Announced (ledger)"]}
              empty="This account has no claim in the queue."
              rows={mine.map((c) => [
                <ClaimLink id={c.id} key="c">
                  Claim {c.id}
                </ClaimLink>,
                <NamespaceLink namespace={c.namespace} key="n" />,
                claimState(c.state),
                String(c.announcedLedger),
              ])}
            />
          );
        }}
      />
    </Page>
  );
}
