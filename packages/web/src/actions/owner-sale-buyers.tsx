// The buyers of the owner's open listing (each intent, whether the escrow holds its deposit, the transfer proposed
// to one of them) and the confirmation of a cancel in words: parts of the owner's sale panel (owner-sale.tsx).
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { AccountLink, Table } from "../ui.tsx";
import type { LoadAction } from "./action.ts";
import type { Open } from "./owner-sale.tsx";
import { cancelConsequences } from "./sale-terms.ts";

export function Buyers(props: {
  readonly namespace: string;
  readonly listing: Open;
  readonly busy: boolean;
  readonly start: (load: LoadAction) => void;
  readonly onReload: () => void;
}): JSX.Element {
  const { namespace, listing: l } = props;
  const open = l.state === "active";
  return (
    <>
      <h4>Buyers</h4>
      <Table
        caption="Buyers holding an intent"
        headings={["Buyer", "Intent valid until", "Deposit", "Proposal"]}
        empty="No buyer holds an intent yet: a buyer starts on the listing's page, then you propose the transfer to them."
        rows={l.intents.map((i) => [
          <AccountLink address={i.buyer} key="b" />,
          i.expiresAt,
          i.funded ? "in the escrow" : "not paid",
          l.proposal?.to === i.buyer ? (
            `proposed, until ${l.proposal.expiresAt}`
          ) : open ? (
            <button
              type="button"
              key="p"
              disabled={props.busy}
              onClick={() =>
                props.start(() =>
                  import("./selling.ts").then((m) => m.proposeTransfer(l.id, namespace, i.buyer)),
                )
              }
            >
              Propose transfer to {shortAccount(i.buyer)}
            </button>
          ) : (
            "none"
          ),
        ])}
      />
      <p class="row">
        <button type="button" class="secondary" onClick={props.onReload}>
          Check for new buyers
        </button>
      </p>
    </>
  );
}

/** What cancelling does, in words, from what the page knows now; the focus moves to the answer. */
export function ConfirmCancel(props: {
  readonly namespace: string;
  readonly listing: Open;
  readonly sending: boolean;
  readonly onCancel: () => void;
  readonly onKeep: () => void;
}): JSX.Element {
  const { namespace, listing: l } = props;
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  return (
    <fieldset>
      <legend>Cancel the listing of {namespace}?</legend>
      {cancelConsequences(l).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p class="row">
        <button type="button" ref={yes} disabled={props.sending} onClick={props.onCancel}>
          Yes, cancel the listing
        </button>{" "}
        <button type="button" class="secondary" onClick={props.onKeep}>
          Keep the listing
        </button>
      </p>
    </fieldset>
  );
}

const shortAccount = (account: string) => `${account.slice(0, 4)}…${account.slice(-4)}`;
