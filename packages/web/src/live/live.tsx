// The page's side of the change stream: which changes a page listens to (its namespace, a kind of change, or all
// of them for an account), and the indicator that says when what is shown may be behind ("Reconnecting…").
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { Route } from "../routes.ts";
import { type LiveStatus, listen, liveStatus, onLiveStatus } from "./stream.ts";
import type { Scope } from "./topics.ts";

const CLAIM_TYPES = ["claim.announced", "claim.objected", "claim.awarded"] as const;
const MARKET_TYPES = ["market.listed", "market.sold"] as const;

/**
 * What a page listens to: a name's or a namespace's page its namespace (a name shows its namespace's policy too), an
 * account every change (the stream has no account filter; topics.ts picks the account's reads), the service's
 * status every change (each moves the processed ledger), the queue and the market their kinds of change; a
 * transaction or a contract's past events never change: no stream.
 */
export function scopeOf(route: Route): Scope | null {
  switch (route.page) {
    case "name":
      return { namespace: route.name.split(".").at(-1) ?? route.name };
    case "namespace":
    case "webhooks":
    case "listing":
      return { namespace: route.namespace };
    case "account":
    case "status":
      return {};
    case "claims":
      return { types: CLAIM_TYPES };
    case "market":
      return { types: MARKET_TYPES };
    default:
      return null;
  }
}

/** Listens to the route's changes while it is shown. */
export function useLive(route: Route): void {
  const scope = scopeOf(route);
  // An invalid segment would be refused by the stream (400 invalid_name): the page already says it is invalid.
  const valid = scope?.namespace === undefined || /^[a-z0-9-]{1,63}$/.test(scope.namespace);
  useEffect(() => listen(valid ? scope : null), [JSON.stringify(scope), valid]);
}

export function useLiveStatus(): LiveStatus {
  const [status, setStatus] = useState(liveStatus);
  useEffect(() => onLiveStatus(setStatus), []);
  return status;
}

const WORDS: Readonly<Record<Exclude<LiveStatus, "off">, string>> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
};

/** "Live" while the page hears the chain's changes; otherwise that it is catching up. */
export function LiveIndicator(): JSX.Element | null {
  const status = useLiveStatus();
  if (status === "off") return null;
  return (
    <p class={`live live-${status}`} role="status" data-live={status}>
      <span class="live-dot" aria-hidden="true" />
      {WORDS[status]}
      {status === "reconnecting" ? (
        <span class="visually-hidden">: this page may be behind the chain</span>
      ) : null}
    </p>
  );
}
