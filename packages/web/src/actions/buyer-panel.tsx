// A listing page's buying steps for the signed-in wallet (docs/market.md "Buyer flow"), as a stepper: ask to buy
// (POST /v1/market/listings/{id}/intent, no session), the seller's offer, the deposit into the escrow, the
// acceptance, the escrow paying the seller — each step done, now, waiting on the other party, or later
// (buyer-state.ts). The step that is the buyer's turn carries its button; the others say why in one line. Paying
// and accepting go through the action flow (review in words, sign in the wallet, follow to the result), whose
// result never blocks the next step. Where the buyer stands (GET /v1/market/listings/{id}/buyers/{account}) is read
// on opening, after every step, and every few seconds while the seller or the escrow has the next move. After the
// sale the stepper becomes a receipt: what was paid, to whom, with the transactions.
//
// Use: `<BuyerPanel listingId={l.id} namespace="acme" onChanged={reload} />` under the listing.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { AccountLink, Defs, Details, ErrorNote, Mono, NamespaceLink, TxLink, When } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { SignInButton } from "../wallet/sign-in.tsx";
import { useActionRun } from "./action-flow.tsx";
import {
  type BuyerState,
  buyerSteps,
  canAccept,
  canPay,
  type Included,
  isFinal,
  isWaiting,
  NOTHING_INCLUDED,
  payoutTerm,
  type Receipt,
  receipt,
  withIncluded,
} from "./buyer-state.ts";
import { StepButton, Stepper } from "./stepper.tsx";

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
  /** Read the page again; `owner` when the buyer's acceptance made them the namespace's owner. */
  readonly onChanged: (owner?: string) => void;
}): JSX.Element {
  const session = useSession();
  const [intent, setIntent] = useState<Intent | null>(null);
  const [error, setError] = useState<Explained | null>(null);
  const [minting, setMinting] = useState(false);
  const [read, setRead] = useState(0);
  const account = session?.account ?? null;
  const buyer = useBuyerState(props.listingId, account, read);
  // What the buyer's transactions set, shown from the moment the network included them (withIncluded).
  const [included, setIncluded] = useState<Included>(NOTHING_INCLUDED);
  const sent = useRef<"deposit" | "accept">("deposit");
  const actions = useActionRun(({ txHash }) => {
    const accepted = sent.current === "accept";
    setIncluded((i) => (accepted ? { ...i, accepted } : { ...i, deposit: txHash }));
    setRead((n) => n + 1);
    props.onChanged(accepted && account !== null ? account : undefined);
  });
  const s = buyer.state === null ? null : withIncluded(buyer.state, included);
  const settled = s !== null && isFinal(s);
  // The market's "Buy" links here (`/market/forsale#buy`): the buying steps come into view.
  useEffect(() => {
    if (location.hash === "#buy") document.getElementById("buy")?.scrollIntoView();
  }, [session === null]);
  // The page's listing, owner and sales change when the sale settles: read them again once it has.
  useEffect(() => {
    if (settled) props.onChanged();
  }, [settled]);
  if (session === null)
    return (
      <p class="row" id="buy">
        <span class="hint">Sign in with your wallet to buy {props.namespace}.</span>{" "}
        <SignInButton label={`Sign in to buy ${props.namespace}`} />
      </p>
    );
  const { namespace, listingId } = props;
  /** The intent's payment instructions: minted now, or the current intent again (minting is idempotent). */
  const ensureIntent = async (): Promise<Intent> => {
    if (intent !== null && new Date(intent.intent.expiresAt).getTime() > Date.now()) return intent;
    const fresh = await mint(listingId, session.account);
    setIntent(fresh);
    return fresh;
  };
  const begin = () => {
    setMinting(true);
    setError(null);
    ensureIntent()
      .then(
        () => setRead((n) => n + 1),
        (e: unknown) => setError(explain(e)),
      )
      .finally(() => setMinting(false));
  };
  const busy = actions.busy || minting;
  const buttons: Partial<Record<string, JSX.Element>> =
    s === null
      ? {}
      : {
          request:
            s.listing.state === "active" ? (
              <button type="button" onClick={begin} disabled={busy}>
                {s.intent?.expired ? `Ask again to buy ${namespace}` : `Start buying ${namespace}`}
              </button>
            ) : undefined,
          deposit: (
            <StepButton
              id="buy-pay"
              label="Pay the deposit"
              step={canPay(s)}
              busy={busy}
              onClick={() => {
                sent.current = "deposit";
                actions.start(async () => {
                  const { pay } = await ensureIntent();
                  const m = await import("./market.ts");
                  return m.payDeposit(listingId, namespace, pay);
                });
              }}
            />
          ),
          accept: (
            <StepButton
              id="buy-accept"
              label={`Accept ${namespace}`}
              step={canAccept(s)}
              busy={busy}
              onClick={() => {
                sent.current = "accept";
                actions.start(() =>
                  import("./market.ts").then((m) => m.acceptTransfer(listingId, namespace)),
                );
              }}
            />
          ),
        };
  const done = s === null ? null : receipt(s);
  return (
    <section class="manage" aria-labelledby="buy-title" id="buy">
      <h3 id="buy-title">Buy {namespace}</h3>
      {buyer.error === null ? null : <ErrorNote error={buyer.error} />}
      {s === null ? (
        buyer.error === null ? (
          <p class="hint">Loading…</p>
        ) : null
      ) : done !== null ? (
        <BuyerReceipt receipt={done} namespace={namespace} seller={s.listing.seller} />
      ) : s.settlement.state === "sold_to_other" || s.settlement.state === "closed" ? (
        <p>
          {s.settlement.state === "closed"
            ? "This listing is closed: it is no longer for sale."
            : `${namespace} was sold to another account.`}
        </p>
      ) : (
        <Stepper label="Steps to buy" steps={buyerSteps(s, namespace)} buttons={buttons} />
      )}
      {s === null ? null : <Returns state={s} />}
      {s === null || s.intent === null ? null : <RequestDetails state={s} intent={intent} />}
      {error === null ? null : <ErrorNote error={error} />}
      {actions.flow}
    </section>
  );
}

/** The stepper once the sale settled: the namespace is the buyer's, what was paid and to whom, with links. */
function BuyerReceipt(props: {
  readonly receipt: Receipt;
  readonly namespace: string;
  readonly seller: string;
}): JSX.Element {
  const r = props.receipt;
  return (
    <div class="receipt" role="status">
      <h4>{props.namespace} is yours</h4>
      <Defs
        items={[
          ["Namespace", <NamespaceLink namespace={props.namespace} key="n" />],
          [
            "You paid",
            r.depositTx === null ? (
              r.price
            ) : (
              <>
                {r.price}, in transaction <TxLink hash={r.depositTx} />
              </>
            ),
          ],
          [
            "The seller received",
            <>
              {r.sellerGot}
              {r.payoutTx === null ? null : (
                <>
                  , in transaction <TxLink hash={r.payoutTx} />
                </>
              )}
            </>,
          ],
          ["Seller", <AccountLink address={props.seller} key="s" />],
          ["Market fee", `${r.fee} (${r.feePercent} market fee)`],
          ["Settled", <When at={r.settledAt} relative key="w" />],
        ]}
      />
    </div>
  );
}

/** Money the escrow sends back to the buyer (a refund, a bounce, the seller's bond), with its transaction. */
function Returns({ state }: { readonly state: BuyerState }): JSX.Element | null {
  const items: [string, JSX.Element | string][] = [];
  for (const p of state.deposit.payouts) {
    const heading = payoutTerm(p);
    if (heading !== null)
      items.push([heading, p.txHash === null ? "Not sent yet." : <TxLink hash={p.txHash} key={p.purpose} />]);
  }
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="buy-returns">
      <h4 id="buy-returns">Sent back to you</h4>
      <Defs items={items} />
    </section>
  );
}

/** The purchase request's machine values — its id, memo, the escrow's account — for whoever needs them. */
function RequestDetails(props: { readonly state: BuyerState; readonly intent: Intent | null }): JSX.Element {
  const { state, intent } = props;
  const current = state.intent;
  return (
    <Details summary="Details of your purchase request">
      <Defs
        items={[
          ["Request id", <Mono key="i">{current?.id}</Mono>],
          ["Valid until", current === null ? "—" : <When at={current.expiresAt} relative key="v" />],
          ["Hash memo", <Mono key="m">{current?.memoHash}</Mono>],
          ...(intent === null
            ? []
            : ([
                ["Escrow account", <Mono key="e">{intent.pay.to}</Mono>],
                ["Deposit", <Mono key="d">{intent.pay.amountXlm} XLM</Mono>],
              ] as const)),
          ...(state.deposit.txHash === null
            ? []
            : ([["Your payment", <TxLink hash={state.deposit.txHash} key="p" />]] as const)),
        ]}
      />
      {intent === null ? null : <p class="hint">{intent.pay.note}</p>}
    </Details>
  );
}
