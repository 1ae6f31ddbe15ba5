// The claims page's controls for the signed-in claimant (docs/claims.md): withdraw an own open claim (pending or
// objected) and recover the claim-fee credit waiting for the account (GET /v1/claim-fee/credit/{address}), each
// through the action flow (review in words, sign in the wallet, follow to the result).
//
// Use: `<ClaimantPanel open={[...pending, ...objected]} onChanged={reload} />` on the claims page.
import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { baseUnitsAmount } from "../format.ts";
import { Section, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { useActionRun } from "./action-flow.tsx";

export function ClaimantPanel(props: {
  /** The open claims; null while the queue is read (again). */
  readonly open:
    | readonly {
        readonly id: string;
        readonly namespace: string;
        readonly claimantAccount: string;
      }[]
    | null;
  /** Read the queue again; `withdrawn` names the claim whose withdrawal the network included. */
  readonly onChanged: (withdrawn: string | null) => void;
}): JSX.Element {
  const session = useSession();
  const [read, setRead] = useState(0);
  const account = session?.account ?? "";
  // The claim being withdrawn, if the running action is a withdrawal (else the credit's recovery).
  const sent = useRef<string | null>(null);
  const { start, busy, flow } = useActionRun(() => {
    setRead((n) => n + 1);
    props.onChanged(sent.current);
  });
  const credit = useLoad(`credit:${account}:${read}`, () =>
    account === ""
      ? Promise.resolve(null)
      : unwrap(api.GET("/v1/claim-fee/credit/{address}", { params: { path: { address: account } } })),
  );
  if (session === null)
    return (
      <p class="hint">
        Sign in with your wallet to withdraw your own claims and recover your claim-fee credit.
      </p>
    );
  const mine = props.open?.filter((c) => c.claimantAccount === session.account) ?? null;
  return (
    <section class="manage" aria-labelledby="claimant-title">
      <h2 id="claimant-title">Your claims</h2>
      {/* While the queue is read, the section above says so: no "no open claim" before it is known. */}
      {mine === null ? null : mine.length === 0 ? (
        <p>You have no open claim.</p>
      ) : (
        <ul class="plain-list" aria-label="Withdraw a claim">
          {mine.map((c) => (
            <li key={c.id} class="row">
              <span>
                Claim {c.id} on {c.namespace}
              </span>
              <button
                type="button"
                class="secondary"
                disabled={busy}
                onClick={() => {
                  sent.current = c.id;
                  start(() => import("./claims.ts").then((m) => m.withdrawClaim(c.id, c.namespace)));
                }}
              >
                Withdraw claim {c.id}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Section
        loaded={credit}
        render={(c) =>
          c === null ? null : (
            <p class="row">
              <span>Claim-fee credit waiting for you: {baseUnitsAmount(c.amount)}.</span>
              {c.amount === "0" ? null : (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => {
                    sent.current = null;
                    start(() => import("./claims.ts").then((m) => m.recoverCredit(session.account)));
                  }}
                >
                  Recover the credit
                </button>
              )}
            </p>
          )
        }
      />
      {flow}
    </section>
  );
}
