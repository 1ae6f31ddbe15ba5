// The claims page's announce control for the signed-in account (docs/claims.md): the namespace, the basis and the
// evidence, each checked in words (announce-form.ts); then the claim fee quoted (GET /v1/claim-fee/{label}) and
// its refund rules per outcome in words; then the action flow (announce.ts: prepare with that quote, verifyAnnounce
// against the deployment's public RPC, review, sign in the wallet, submit); then it follows the claim queue until
// the new claim is there and links to its card. Without a public RPC (GET /v1/network) the page cannot check the
// announcement against the chain itself, so it refuses and says why.
//
// Use: `<AnnouncePanel onChanged={reloadQueue} />` on the claims page.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { baseUnitsAmount } from "../format.ts";
import { AccountLink, Defs, Details, Mono, Section, UserLink, UserText, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { SignInButton } from "../wallet/sign-in.tsx";
import { basis as basisWords, feeOutcome } from "../words.ts";
import { useActionRun } from "./action-flow.tsx";
import type { ReviewedQuote } from "./announce.ts";
import { FollowClaim } from "./announce-follow.tsx";
import { type AnnounceInput, type FormField, parseAnnounce, refundLines } from "./announce-form.ts";

export function AnnouncePanel(props: { readonly onChanged: () => void }): JSX.Element {
  const session = useSession();
  const network = useLoad("network", () => unwrap(api.GET("/v1/network")));
  return (
    <section class="manage" aria-labelledby="announce-title">
      <h2 id="announce-title">Announce a claim</h2>
      {session === null ? (
        <p class="row">
          <span class="hint">
            Sign in with your wallet to claim a namespace: you announce the claim and pay the fee.
          </span>{" "}
          <SignInButton label="Sign in to claim a namespace" />
        </p>
      ) : (
        <Section
          loaded={network}
          render={(n) =>
            n.publicRpcUrl === null ? (
              <p>
                This service names no public Stellar RPC, so this page cannot check a claim against the chain
                itself before your wallet signs it, and does not announce claims. Its operator can name one
                (PUBLIC_RPC_URL); until then announce with a wallet that checks the claim fee on the chain.
              </p>
            ) : (
              <AnnounceForm account={session.account} rpcUrl={n.publicRpcUrl} onChanged={props.onChanged} />
            )
          }
        />
      )}
    </section>
  );
}

function AnnounceForm(props: {
  readonly account: string;
  readonly rpcUrl: string;
  readonly onChanged: () => void;
}): JSX.Element {
  const [label, setLabel] = useState("");
  const [basis, setBasis] = useState("");
  const [evidence, setEvidence] = useState("");
  const [problems, setProblems] = useState<Partial<Record<FormField, string>>>({});
  // The request being reviewed; `n` makes each "Review the fee" read the quote afresh.
  const [asked, setAsked] = useState<{ readonly n: number; readonly input: AnnounceInput } | null>(null);
  const [follow, setFollow] = useState<{ readonly n: number; readonly label: string } | null>(null);
  const { start, busy, flow } = useActionRun(() => {
    if (asked !== null) setFollow((f) => ({ n: (f?.n ?? 0) + 1, label: asked.input.label }));
    // The form is empty again for the next claim; the quote reviewed stays until then.
    setLabel("");
    setBasis("");
    setEvidence("");
    setAsked(null);
    props.onChanged();
  });
  const fieldRefs = useRef<Record<FormField, HTMLElement | null>>({
    label: null,
    basis: null,
    evidence: null,
  });

  const field = (name: FormField) => ({
    "aria-invalid": problems[name] === undefined ? undefined : ("true" as const),
    "aria-describedby":
      problems[name] === undefined
        ? `announce-${name}-hint`
        : `announce-${name}-hint announce-${name}-problem`,
  });
  const problem = (name: FormField) =>
    problems[name] === undefined ? null : (
      <p id={`announce-${name}-problem`} class="error">
        {problems[name]}
      </p>
    );

  return (
    <>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = parseAnnounce(label, basis, evidence);
          if (!parsed.ok) {
            setProblems(parsed.problems);
            setAsked(null);
            // The first field to fix takes the focus, so a keyboard or screen-reader user lands on it.
            const first = (["label", "basis", "evidence"] as const).find(
              (f) => parsed.problems[f] !== undefined,
            );
            if (first !== undefined) fieldRefs.current[first]?.focus();
            return;
          }
          setProblems({});
          setAsked((a) => ({ n: (a?.n ?? 0) + 1, input: parsed.value }));
        }}
      >
        <label for="announce-label">Namespace</label>
        <input
          id="announce-label"
          autocomplete="off"
          spellcheck={false}
          ref={(el) => {
            fieldRefs.current.label = el;
          }}
          {...field("label")}
          value={label}
          onInput={(e) => setLabel(e.currentTarget.value)}
        />
        <p id="announce-label-hint" class="hint">
          A label: 1 to 63 of a-z, 0-9 and “-”.
        </p>
        {problem("label")}
        <label for="announce-basis">Basis</label>
        <input
          id="announce-basis"
          autocomplete="off"
          ref={(el) => {
            fieldRefs.current.basis = el;
          }}
          {...field("basis")}
          value={basis}
          onInput={(e) => setBasis(e.currentTarget.value)}
        />
        <p id="announce-basis-hint" class="hint">
          Why the namespace should be yours, as words separated by commas: trademark, prior use, brand (at
          most 8).
        </p>
        {problem("basis")}
        <label for="announce-evidence">Evidence (optional)</label>
        <textarea
          id="announce-evidence"
          rows={3}
          spellcheck={false}
          ref={(el) => {
            fieldRefs.current.evidence = el;
          }}
          {...field("evidence")}
          value={evidence}
          onInput={(e) => setEvidence(e.currentTarget.value)}
        />
        <p id="announce-evidence-hint" class="hint">
          One per line: a description, then its web address (http:// or https://). At most 8.
        </p>
        {problem("evidence")}
        <p class="row">
          <button type="submit" disabled={busy}>
            Review the fee
          </button>
        </p>
      </form>
      {asked === null ? null : (
        <QuoteReview
          key={asked.n}
          input={asked.input}
          busy={busy}
          onAnnounce={(quote) =>
            start(() =>
              import("./announce.ts").then((m) => m.announceClaim(asked.input, quote, props.rpcUrl)),
            )
          }
        />
      )}
      {flow}
      {follow === null ? null : (
        <FollowClaim key={follow.n} label={follow.label} account={props.account} onFound={props.onChanged} />
      )}
    </>
  );
}

/** The quote for the label in words: the fee, who holds it, the refund of each outcome, and whether it is claimed. */
function QuoteReview(props: {
  readonly input: AnnounceInput;
  readonly busy: boolean;
  readonly onAnnounce: (quote: ReviewedQuote) => void;
}): JSX.Element {
  const { input } = props;
  const quote = useLoad(`announce-fee:${input.label}`, () =>
    unwrap(api.GET("/v1/claim-fee/{label}", { params: { path: { label: input.label } } })),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (quote.state !== "loading") heading.current?.focus();
  }, [quote.state]);
  return (
    <section aria-labelledby="announce-quote-title">
      <h3 id="announce-quote-title" tabIndex={-1} ref={heading}>
        The claim fee for {input.label}
      </h3>
      <Section
        loaded={quote}
        render={(q) => {
          const p = q.policy;
          const live = q.receipt !== null && q.receipt.outcome === "Held";
          return (
            <>
              <Defs
                items={[
                  ["Namespace", input.label],
                  ["Basis", input.basis.map(basisWords).join(", ")],
                  [
                    "Evidence",
                    input.evidence.length === 0 ? (
                      "none"
                    ) : (
                      <ul class="plain" key="e">
                        {input.evidence.map((e) => (
                          <li key={e.url}>
                            <UserText text={e.label} />: <UserLink value={e.url} />
                          </li>
                        ))}
                      </ul>
                    ),
                  ],
                  [
                    "Fee",
                    <>
                      {baseUnitsAmount(p.amount, p.decimals, p.asset)}, paid from your account to the claim
                      allocator, which holds it until the claim ends
                    </>,
                  ],
                  [
                    "When the claim ends",
                    <ul class="plain" key="r">
                      {refundLines(p.amount, p.refundBps).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>,
                  ],
                  ["Treasury", <AccountLink address={p.recipient} key="t" />],
                  [
                    "Claimed before",
                    q.receipt === null ? (
                      "no"
                    ) : (
                      <>
                        by <AccountLink address={q.receipt.claimant} /> ({feeOutcome(q.receipt.outcome)})
                      </>
                    ),
                  ],
                ]}
              />
              <Details>
                <Defs items={[["Claim allocator", <Mono key="a">{p.allocatorId}</Mono>]]} />
              </Details>
              {live ? (
                <p>A claim on {input.label} is live: wait until it ends to announce another.</p>
              ) : (
                <p class="row">
                  <button
                    type="button"
                    disabled={props.busy}
                    onClick={() =>
                      props.onAnnounce({
                        allocatorId: p.allocatorId,
                        token: p.token,
                        amount: p.amount,
                        recipient: p.recipient,
                        network: p.network,
                        refundBps: p.refundBps,
                      })
                    }
                  >
                    Announce with this fee
                  </button>
                </p>
              )}
            </>
          );
        }}
      />
    </section>
  );
}
