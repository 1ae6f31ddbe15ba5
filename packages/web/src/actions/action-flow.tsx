// The action flow every change in the page goes through: prepare → review in words → sign in the wallet → submit →
// follow to the result. The review is read from the envelope after @namereg/client's verifyPrepared has checked it
// (flow.ts): what the call does, the contract and function, the network, the signing account, the fee in XLM, how
// long the signature stays usable. Nothing is signed until the person presses Sign; the result (the transaction
// hash and ledger, or the spec's error in words) takes the focus, and every step is announced to screen readers.
//
// The result is a status message that stays until the next action replaces it, and never blocks that action: a
// panel's buttons are disabled only while a flow is under way (preparing, in review, signing, submitting).
//
// Use: `const actions = useActionRun(reload)`; a button calls `actions.start(() => import("./subnames.ts").then((m)
// => m.createSubname(name, to)))` and is disabled while `actions.busy`; the panel renders `actions.flow`. It needs
// a signed-in session (wallet/session.ts) and says so when there is none.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { NameregError } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { refresh } from "../live/query.ts";
import { AccountLink, Defs, Details, ErrorNote, Mono, TxLink, UserText, When } from "../ui.tsx";
import { forgetSession, type Session, useSession, walletOf } from "../wallet/session.ts";
import type { ConnectedWallet } from "../wallet/wallet.ts";
import type { Action, LoadAction } from "./action.ts";
import type { Outcome, Review } from "./flow.ts";

/** A transaction the network included: its hash and ledger. */
export type Included = Extract<Outcome, { readonly state: "included" }>;

type Step =
  | { readonly state: "preparing" }
  | { readonly state: "review"; readonly review: Review; readonly wallet: ConnectedWallet }
  | { readonly state: "signing"; readonly wallet: string }
  | { readonly state: "submitting"; readonly txHash: string | null }
  | { readonly state: "done"; readonly outcome: Outcome; readonly review: Review }
  | { readonly state: "failed"; readonly error: Explained };

let counter = 0;

/**
 * A panel's actions: `start` runs one (a new flow replaces the last one's result), `busy` is true only while the
 * flow is under way — never while its result or failure is shown — and `flow` is what the panel renders.
 * `onDone` runs once the network included a transaction (read the data again, reset the form, show what it set).
 */
export function useActionRun(onDone?: (included: Included) => void): {
  readonly start: (load: LoadAction) => void;
  readonly busy: boolean;
  readonly flow: JSX.Element | null;
} {
  const [run, setRun] = useState<{
    readonly n: number;
    readonly load: LoadAction;
    readonly settled: boolean;
  } | null>(null);
  const start = (load: LoadAction) => setRun((r) => ({ n: (r?.n ?? 0) + 1, load, settled: false }));
  const flow =
    run === null ? null : (
      <ActionFlow
        key={run.n}
        load={run.load}
        onDone={onDone}
        onSettled={() => setRun((r) => (r?.n === run.n ? { ...r, settled: true } : r))}
        onClose={() => setRun((r) => (r?.n === run.n ? null : r))}
      />
    );
  return { start, busy: run !== null && !run.settled, flow };
}

export function ActionFlow(props: {
  readonly load: LoadAction;
  /** Called once the network included the transaction (e.g. to read the page's data again). */
  readonly onDone?: (included: Included) => void;
  /** Called when the flow has nothing more to do: its result or its failure is shown. */
  readonly onSettled?: () => void;
  /** The person cancelled the review: the flow goes away. */
  readonly onClose: () => void;
}): JSX.Element {
  const session = useSession();
  const [step, setStep] = useState<Step>({ state: "preparing" });
  const [action, setAction] = useState<Action | null>(null);
  const [id] = useState(() => `action-${++counter}`);
  const heading = useRef<HTMLHeadingElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  const fail = (error: unknown, s: Session | null) => {
    // A session the service no longer knows: the person signs in again.
    if (s !== null && explain(error).code === "unauthorized") forgetSession(s);
    if (!alive.current) return;
    setStep({ state: "failed", error: explain(error) });
    props.onSettled?.();
  };

  useEffect(() => {
    if (session === null) {
      props.onSettled?.();
      return;
    }
    (async () => {
      const [loaded, flow, wallet] = await Promise.all([
        props.load(),
        import("./flow.ts"),
        walletOf(session),
      ]);
      if (!alive.current) return;
      setAction(loaded);
      const review = await flow.review(loaded, wallet, session);
      if (alive.current) setStep({ state: "review", review, wallet });
    })().catch((error: unknown) => fail(error, session));
    // One run per mounted flow: a new request mounts a new flow (its `key`).
  }, []);

  useEffect(() => {
    // The review, the result and a failure each take the focus as they appear.
    if (step.state === "review") heading.current?.focus();
    if (step.state === "done" || step.state === "failed") result.current?.focus();
  }, [step.state]);

  const sign = (review: Review, wallet: ConnectedWallet) => {
    if (session === null) return;
    setStep({ state: "signing", wallet: wallet.name });
    import("./flow.ts")
      .then((flow) => {
        const pending = (txHash: string) => alive.current && setStep({ state: "submitting", txHash });
        return flow.signAndSubmit(review, wallet, session, pending);
      })
      .then((outcome) => {
        if (!alive.current) return;
        setStep({ state: "done", outcome, review });
        props.onSettled?.();
        if (outcome.state === "included") {
          // The person's own change: everything shown is read again now, and again when the mirror's change
          // arrives on the stream (the mirror may index it a moment after the network included it).
          refresh();
          props.onDone?.(outcome);
        }
      })
      .catch((error: unknown) => fail(error, session));
  };

  const title = action?.title ?? "Preparing the change";
  return (
    <section class="action" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} tabIndex={-1} ref={heading}>
        {step.state === "review" ? `Review: ${title}` : title}
      </h3>
      <div aria-live="polite">
        {session === null ? (
          <ErrorNote error={explain(new NameregError(0, { error: "wallet_session_required" }))} />
        ) : step.state === "preparing" ? (
          <p>Preparing the transaction…</p>
        ) : step.state === "signing" ? (
          <p>Waiting for {step.wallet} to sign…</p>
        ) : step.state === "submitting" ? (
          <p>
            Submitted; the network has not included it yet
            {step.txHash === null ? "" : ` (transaction ${step.txHash})`}. Asking again…
          </p>
        ) : null}
      </div>
      {step.state === "review" ? (
        <ReviewView review={step.review} wallet={step.wallet} onSign={sign} onCancel={props.onClose} />
      ) : null}
      {step.state === "done" ? (
        <div class="result" role="status" tabIndex={-1} ref={result}>
          <DoneView outcome={step.outcome} review={step.review} action={action} />
        </div>
      ) : null}
      {step.state === "failed" ? (
        <div tabIndex={-1} ref={result}>
          <ErrorNote error={step.error} />
        </div>
      ) : null}
    </section>
  );
}

function ReviewView(props: {
  readonly review: Review;
  readonly wallet: ConnectedWallet;
  readonly onSign: (review: Review, wallet: ConnectedWallet) => void;
  readonly onCancel: () => void;
}): JSX.Element {
  const r = props.review;
  // Every fact a signer must see, in words first; the raw values (contract id, function, memo bytes) under
  // Details, read from the same verified envelope.
  return (
    <>
      <Defs
        items={[
          [
            "What it does",
            r.lines.map((line) => (
              <p class="plain" key={line}>
                <UserText text={line} />
              </p>
            )),
          ],
          ...(r.payment === null
            ? ([["Contract", r.contractWords]] as const)
            : ([
                ["Pays to", r.payment.destinationWords],
                ["Amount", r.payment.amount],
                ["Memo", r.payment.memoWords],
              ] as const)),
          ["Network", r.network],
          ["Signed by", <AccountLink address={r.source} key="s" />],
          ["Fee (at most)", r.fee],
          ["Valid until", <When at={r.validUntil} relative key="v" />],
        ]}
      />
      <Details>
        <Defs
          items={
            r.payment === null
              ? [
                  ["Contract id", <Mono key="c">{r.contractId}</Mono>],
                  ["Function", <Mono key="f">{r.fn}</Mono>],
                  ["Valid until (UTC)", <Mono key="v">{r.validUntil}</Mono>],
                ]
              : [
                  ["Destination account", <Mono key="d">{r.payment.destination}</Mono>],
                  ["Operation", <Mono key="f">{r.fn}</Mono>],
                  ["Memo (hash)", <Mono key="m">{r.payment.memo}</Mono>],
                  ["Valid until (UTC)", <Mono key="v">{r.validUntil}</Mono>],
                ]
          }
        />
      </Details>
      <p class="row">
        <button type="button" onClick={() => props.onSign(r, props.wallet)}>
          Sign with {props.wallet.name}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </p>
    </>
  );
}

function DoneView(props: {
  readonly outcome: Outcome;
  readonly review: Review;
  readonly action: Action | null;
}): JSX.Element {
  const { outcome, review } = props;
  // The app's page of the transaction (its events, once indexed); a public network's explorer as well.
  const hash = (
    <>
      <TxLink hash={outcome.txHash} />
      {review.explorer === null ? null : (
        <>
          {" "}
          (
          <a href={`${review.explorer}${outcome.txHash}`} target="_blank" rel="noopener noreferrer">
            on an explorer
          </a>
          )
        </>
      )}
    </>
  );
  const result = props.action?.result;
  return outcome.state === "included" ? (
    <>
      <p>
        Done: {review.title}. Included in ledger {outcome.ledger}.
      </p>
      <p>Transaction {hash}</p>
      {result === undefined ? null : (
        <p>
          <a href={result.href}>{result.label}</a>
        </p>
      )}
    </>
  ) : (
    <>
      <p>
        Submitted, but the network had not included it after two minutes. It may still be: the same signed
        transaction can never apply twice.
      </p>
      <p>Transaction {hash}</p>
    </>
  );
}
