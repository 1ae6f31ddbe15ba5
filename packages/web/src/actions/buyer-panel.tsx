// A listing page's buying steps for the signed-in wallet (docs/market.md "Buyer flow"): mint an intent (POST
// /v1/market/listings/{id}/intent, no session) and show its payment instructions and the settlement's steps, then
// pay the deposit into the escrow and, once the seller's proposal to you is live, accept the namespace — each
// through the action flow (review in words, sign in the wallet, follow to the result).
//
// Use: `<BuyerPanel listingId={l.id} namespace="acme" onChanged={reload} />` under the listing.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { AccountLink, Defs, ErrorNote, Mono } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { ActionFlow } from "./action-flow.tsx";

type Intent = Awaited<ReturnType<typeof mint>>;

const mint = (listingId: string, account: string) =>
  unwrap(
    api.POST("/v1/market/listings/{id}/intent", { params: { path: { id: listingId } }, body: { account } }),
  );

export function BuyerPanel(props: {
  readonly listingId: string;
  readonly namespace: string;
  readonly onChanged: () => void;
}): JSX.Element {
  const session = useSession();
  const [intent, setIntent] = useState<Intent | null>(null);
  const [error, setError] = useState<Explained | null>(null);
  const [minting, setMinting] = useState(false);
  const [run, setRun] = useState<{ readonly n: number; readonly load: LoadAction } | null>(null);
  const start = (load: LoadAction) => setRun((r) => ({ n: (r?.n ?? 0) + 1, load }));
  if (session === null) return <p class="hint">Sign in with your wallet to buy {props.namespace}.</p>;
  const begin = () => {
    setMinting(true);
    setError(null);
    mint(props.listingId, session.account)
      .then(setIntent, (e: unknown) => setError(explain(e)))
      .finally(() => setMinting(false));
  };
  const busy = run !== null;
  return (
    <section class="manage" aria-labelledby="buy-title">
      <h3 id="buy-title">Buy {props.namespace}</h3>
      {intent === null ? (
        <p class="row">
          <button type="button" onClick={begin} disabled={minting}>
            Start buying {props.namespace}
          </button>
        </p>
      ) : (
        <>
          <Defs
            items={[
              ["Intent", <Mono key="i">{intent.intent.id}</Mono>],
              ["Intent valid until", intent.intent.expiresAt],
              ["Deposit", `${intent.pay.amountXlm} XLM`],
              ["Pay to", <AccountLink address={intent.pay.to} key="t" />],
              ["Hash memo", <Mono key="m">{intent.pay.memoHash}</Mono>],
              ["Seller", <AccountLink address={intent.settlement.seller} key="s" />],
            ]}
          />
          <p class="hint">{intent.pay.note}</p>
          <h4>Steps</h4>
          <ol>
            {intent.settlement.steps.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
          <p class="row">
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                start(() =>
                  import("./market.ts").then((m) =>
                    m.payDeposit(props.listingId, props.namespace, intent.pay),
                  ),
                )
              }
            >
              Pay the deposit
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                start(() =>
                  import("./market.ts").then((m) => m.acceptTransfer(props.listingId, props.namespace)),
                )
              }
            >
              Accept {props.namespace}
            </button>
          </p>
          <p class="hint">
            Pay once the seller has proposed the transfer to you; accept after your deposit is in the escrow.
          </p>
        </>
      )}
      {error === null ? null : <ErrorNote error={error} />}
      {run === null ? null : (
        <ActionFlow key={run.n} load={run.load} onDone={props.onChanged} onClose={() => setRun(null)} />
      )}
    </section>
  );
}
