// A listing page's buying steps for the signed-in wallet (docs/market.md "Buyer flow"): mint an intent (POST
// /v1/market/listings/{id}/intent, no session) and show its payment instructions and the settlement's steps, then
// pay the deposit into the escrow and, once the seller's proposal to you is live, accept the namespace — each
// through the action flow (review in words, sign in the wallet, follow to the result). Where the buyer stands
// (GET /v1/market/listings/{id}/buyers/{account}: the seller's proposal, the deposit, the sale) is read on opening,
// after every step, and every few seconds while something is under way that the seller or the escrow finishes; the
// steps are offered only when they make sense (buyer-state.ts says why not, in words).
//
// Use: `<BuyerPanel listingId={l.id} namespace="acme" onChanged={reload} />` under the listing.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { AccountLink, Defs, ErrorNote, Mono, TxLink } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import type { LoadAction } from "./action.ts";
import { ActionFlow } from "./action-flow.tsx";
import {
  type BuyerState,
  canAccept,
  canPay,
  depositWords,
  isFinal,
  isWaiting,
  payoutState,
  payoutTerm,
  proposalWords,
  settlementWords,
} from "./buyer-state.ts";

type Intent = Awaited<ReturnType<typeof mint>>;

/** How often the page asks again while waiting for the seller or the escrow: a few ledgers on a real network. */
const POLL_MS = 3000;

const mint = (listingId: string, account: string) =>
  unwrap(
    api.POST("/v1/market/listings/{id}/intent", { params: { path: { id: listingId } }, body: { account } }),
  );

const readState = (listingId: string, account: string) =>
  unwrap(
    api.GET("/v1/market/listings/{id}/buyers/{account}", {
      params: { path: { id: listingId, account } },
    }),
  );

/** Where the buyer stands, read now, after `read` changes, and every POLL_MS while `isWaiting`. */
function useBuyerState(listingId: string, account: string | null, read: number) {
  const [state, setState] = useState<BuyerState | null>(null);
  const [error, setError] = useState<Explained | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (account === null) return;
    let current = true;
    readState(listingId, account).then(
      (s) => {
        if (!current) return;
        setState(s);
        setError(null);
      },
      // A failed read keeps the last state on screen and says why; the next poll tries again.
      (e: unknown) => current && setError(explain(e)),
    );
    return () => {
      current = false;
    };
  }, [listingId, account, read, tick]);
  const waiting = state === null ? error !== null : isWaiting(state);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setTick((n) => n + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, state, error]);
  return { state, error };
}

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
  const [read, setRead] = useState(0);
  const account = session?.account ?? null;
  const buyer = useBuyerState(props.listingId, account, read);
  const settled = buyer.state !== null && isFinal(buyer.state);
  // The page's listing, owner and sales change when the sale settles: read them again once it has.
  useEffect(() => {
    if (settled) props.onChanged();
  }, [settled]);
  if (session === null) return <p class="hint">Sign in with your wallet to buy {props.namespace}.</p>;
  const start = (load: LoadAction) => setRun((r) => ({ n: (r?.n ?? 0) + 1, load }));
  const changed = () => {
    setRead((n) => n + 1);
    props.onChanged();
  };
  const begin = () => {
    setMinting(true);
    setError(null);
    mint(props.listingId, session.account)
      .then(
        (i) => {
          setIntent(i);
          setRead((n) => n + 1);
        },
        (e: unknown) => setError(explain(e)),
      )
      .finally(() => setMinting(false));
  };
  const busy = run !== null;
  const s = buyer.state;
  const current = s !== null && s.intent !== null && !s.intent.expired;
  const pay = s === null ? null : canPay(s);
  const accept = s === null ? null : canAccept(s);
  return (
    <section class="manage" aria-labelledby="buy-title">
      <h3 id="buy-title">Buy {props.namespace}</h3>
      {s === null ? null : <Standing state={s} namespace={props.namespace} />}
      {buyer.error === null ? null : <ErrorNote error={buyer.error} />}
      {intent === null ? (
        s === null || s.listing.state !== "active" ? null : (
          <p class="row">
            <button type="button" onClick={begin} disabled={minting}>
              {current ? `Continue buying ${props.namespace}` : `Start buying ${props.namespace}`}
            </button>
          </p>
        )
      ) : (
        <>
          <h4>Your intent</h4>
          <Defs
            items={[
              ["Intent", <Mono key="i">{intent.intent.id}</Mono>],
              ["Intent valid until", intent.intent.expiresAt],
              ["Deposit", `${intent.pay.amountXlm} XLM`],
              ["Pay to", <AccountLink address={intent.pay.to} key="t" />],
              ["Hash memo", <Mono key="m">{intent.pay.memoHash}</Mono>],
            ]}
          />
          <p class="hint">{intent.pay.note}</p>
          <h4>Steps</h4>
          <ol>
            {intent.settlement.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p class="row">
            <button
              type="button"
              disabled={busy || pay?.ok !== true}
              aria-describedby={pay?.ok === false ? "buy-pay-why" : undefined}
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
              disabled={busy || accept?.ok !== true}
              aria-describedby={accept?.ok === false ? "buy-accept-why" : undefined}
              onClick={() =>
                start(() =>
                  import("./market.ts").then((m) => m.acceptTransfer(props.listingId, props.namespace)),
                )
              }
            >
              Accept {props.namespace}
            </button>
          </p>
          {pay === null || pay.ok ? null : (
            <p class="hint" id="buy-pay-why">
              Pay: {pay.why}
            </p>
          )}
          {accept === null || accept.ok ? null : (
            <p class="hint" id="buy-accept-why">
              Accept: {accept.why}
            </p>
          )}
        </>
      )}
      {error === null ? null : <ErrorNote error={error} />}
      {run === null ? null : (
        <ActionFlow key={run.n} load={run.load} onDone={changed} onClose={() => setRun(null)} />
      )}
    </section>
  );
}

/** Where the buyer stands: the seller, the proposal, the deposit and the sale, with their transactions. */
function Standing(props: { readonly state: BuyerState; readonly namespace: string }): JSX.Element {
  const { listing, intent, deposit, proposal, settlement } = props.state;
  const seller = settlement.sale?.sellerPayout ?? null;
  const items: [string, JSX.Element | string][] = [
    ["Seller", <AccountLink address={listing.seller} key="s" />],
    ["Price", `${listing.priceXlm} XLM`],
    [
      "Your intent",
      intent === null
        ? "None yet."
        : intent.expired
          ? `Expired at ${intent.expiresAt}: start buying again for a fresh memo.`
          : `Valid until ${intent.expiresAt}.`,
    ],
    ["Seller's proposal", proposalWords(proposal)],
    ["Your deposit", depositWords(deposit)],
  ];
  if (deposit.txHash !== null) items.push(["Your payment", <TxLink hash={deposit.txHash} key="p" />]);
  for (const p of deposit.payouts) {
    const heading = payoutTerm(p);
    if (heading !== null)
      items.push([heading, p.txHash === null ? "Not sent yet." : <TxLink hash={p.txHash} key={p.purpose} />]);
  }
  items.push(["Sale", settlementWords(settlement, props.namespace)]);
  if (seller !== null)
    items.push([
      `Seller paid (${seller.amountXlm} XLM, ${payoutState(seller.state)})`,
      seller.txHash === null ? "Not sent yet." : <TxLink hash={seller.txHash} key="sp" />,
    ]);
  return (
    <section aria-labelledby="buy-standing">
      <h4 id="buy-standing">Where you stand</h4>
      <Defs items={items} />
    </section>
  );
}
