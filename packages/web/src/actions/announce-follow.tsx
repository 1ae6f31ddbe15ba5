// The last step of the announce panel (announce-panel.tsx): the announcement included, the claim queue is read until
// the mirror shows the new claim, then its card is linked.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { href } from "../routes.ts";
import { ClaimLink } from "../ui.tsx";

/** The queue is read this often while the indexer catches up with the included announcement. */
const FOLLOW_EVERY_MS = 1000;
/** About two minutes of reads, as the action flow follows a submission for about two minutes. */
const FOLLOW_READS = 120;

/**
 * After the network included the announcement: reads the queue until the mirror shows the account's claim on the
 * label, then links to its card (the page reads the queue again through `onFound`).
 */
export function FollowClaim(props: {
  readonly label: string;
  readonly account: string;
  readonly onFound: () => void;
}): JSX.Element {
  const [state, setState] = useState<
    { readonly kind: "waiting" } | { readonly kind: "found"; readonly id: string } | { readonly kind: "late" }
  >({ kind: "waiting" });
  const found = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    let alive = true;
    (async () => {
      for (let read = 0; read < FOLLOW_READS && alive; read++) {
        const queue = await unwrap(api.GET("/v1/allocations")).catch(() => null);
        // Pending at first; an objection could already have moved it to the objected group.
        const mine = [...(queue?.pending ?? []), ...(queue?.objected ?? [])].find(
          (c) => c.namespace === props.label && c.claimantAccount === props.account,
        );
        if (mine !== undefined) {
          if (!alive) return;
          setState({ kind: "found", id: mine.id });
          props.onFound();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
      }
      if (alive) setState({ kind: "late" });
    })();
    return () => {
      alive = false;
    };
  }, []);
  useEffect(() => {
    if (state.kind === "found") found.current?.focus();
  }, [state.kind]);
  return (
    <div aria-live="polite">
      {state.kind === "waiting" ? (
        <p>Waiting for the service to show your claim in the queue…</p>
      ) : state.kind === "found" ? (
        <p tabIndex={-1} ref={found}>
          Your claim is in the queue:{" "}
          <ClaimLink id={state.id}>
            claim {state.id} on {props.label}
          </ClaimLink>
          .
        </p>
      ) : (
        <p>
          The service does not show your claim yet; it is on the chain. Look again in a moment:{" "}
          <a href={href.claims()}>the claim queue</a>.
        </p>
      )}
    </div>
  );
}
