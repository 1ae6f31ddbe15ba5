// The API's states in words a person reads (docs/api.md), instead of the field values themselves: `operational`,
// `announced`, `pending` mean little to whoever opens the page. Contract events by type: event-words.ts.
import { eventType } from "./event-words.ts";
import { dateTime, duration, relativeTime } from "./format.ts";

/** A `/v1/status` component's state (docs/api.md "GET /v1/status"). */
export function componentState(state: string): string {
  const words: Record<string, string> = {
    operational: "Operational",
    lagging: "Behind the chain",
    degraded: "Working, needs an operator",
    down: "Down",
    unknown: "Not known yet",
  };
  return words[state] ?? state;
}

/**
 * A `/v1/status` component's name as the page says it. The API names its chain connection "the service RPC" (the
 * spec's name, docs/api.md "GET /v1/status"), which reads as jargon mid-sentence and as a fragment at the start of a
 * row; the others are plain words already and start with a capital, as a row does.
 */
export function componentName(name: string): string {
  if (name === "the service RPC") return "Connection to the Stellar network";
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The status page's one-line summary. While its last read again failed (`stale`), what it shows is the earlier
 * answer, said in the past: "All systems operational" under "the service could not be reached" would contradict it.
 */
export function statusSummary(allOperational: boolean, ledger: number | null, stale = false): string {
  const words = stale
    ? allOperational
      ? "All systems were operational when last read"
      : "Some components needed attention when last read"
    : allOperational
      ? "All systems operational"
      : "Some components need attention";
  return ledger === null ? words : `${words} · ledger ${ledger}`;
}

/**
 * What a status component reports besides its state, in words; "—" when it reports nothing more. `readAt` is when
 * the answer was read (ms): an age the service counted at that moment (a watcher's last poll) grows from then, so an
 * answer kept on screen after a failed re-read does not say "last poll 0 seconds ago" a minute later.
 */
export function componentDetails(
  component: Readonly<Record<string, unknown>>,
  now: number = Date.now(),
  readAt: number = now,
): string {
  const parts: string[] = [];
  // Why a component is down, in the service's words (the indexer refusing a chain that is not the one it indexed:
  // docs/api.md "GET /v1/status"): the one thing an operator looking at a "Down" needs first.
  if (typeof component.reason === "string" && component.reason !== "") parts.push(component.reason);
  const n = (key: string): number | null => {
    const value = component[key];
    return typeof value === "number" ? value : null;
  };
  const ledger = n("ledger");
  if (ledger !== null) parts.push(`at ledger ${ledger}`);
  const lag = n("lag");
  if (lag !== null) parts.push(lag === 0 ? "keeping up with the chain" : `${plural(lag, "ledger")} behind`);
  const processedAt = component.processedAt;
  if (typeof processedAt === "string") {
    const ago = relativeTime(processedAt, now);
    parts.push(`last progress ${ago ?? dateTime(processedAt)}`);
  }
  const deadLetters = n("deadLetters");
  if (deadLetters !== null)
    parts.push(
      deadLetters === 0
        ? "every event applied"
        : `${plural(deadLetters, "event")} could not be applied and wait for an operator`,
    );
  const cursorAge = n("cursorAgeSeconds");
  if (cursorAge !== null) {
    const age = cursorAge + Math.max(0, Math.floor((now - readAt) / 1000));
    parts.push(age === 0 ? "last poll just now" : `last poll ${duration(age)} ago`);
  }
  const parked = n("parkedPayouts");
  if (parked !== null)
    parts.push(parked === 0 ? "nothing parked" : `${plural(parked, "payout")} parked for an operator`);
  const quarantined = n("quarantined");
  if (quarantined !== null)
    parts.push(
      quarantined === 0
        ? "nothing quarantined"
        : `${plural(quarantined, "payment")} quarantined for an operator`,
    );
  return parts.length === 0 ? "—" : parts.join("; ");
}

/** A claim's group in the queue (docs/api.md "GET /v1/allocations": `state` is the group's). */
export function claimState(state: string): string {
  const words: Record<string, string> = {
    announced: "Announced, open to objections",
    objected: "Objected",
    awarded: "Awarded",
  };
  return words[state] ?? state;
}

/** A namespace's subname policy (docs/api.md "Subnames, network addresses and holder transactions"). */
export function subnamePolicy(policy: string): string {
  const words: Record<string, string> = {
    enabled: "Holders may create subnames",
    "creation-disabled": "No new subnames; existing ones stay",
    suspended: "Subnames suspended: none resolves",
  };
  return words[policy] ?? policy;
}

/**
 * Who can change a name's subnames, for anyone but its signed-in holder. Under a policy other than `enabled` the
 * holder cannot create one (docs/api.md: 409 `subname_creation_disabled` or `subnames_suspended`), so the page
 * must not offer it; null while the policy is not known.
 */
export function subnameManagement(name: string, policy: string | null): string | null {
  if (policy === null) return null;
  if (policy === "enabled")
    return `The holder of ${name} can create and remove its subnames here after signing in with their wallet.`;
  const namespace = name.slice(name.indexOf(".") + 1);
  return `Namespace ${namespace} allows no new subnames now (${subnamePolicy(policy).toLowerCase()}); the holder of ${name} can remove its subnames here after signing in with their wallet.`;
}

/** What the chain guarantees about holding a name (docs/api.md "Resolution, records, reverse, names by holder, history"). */
export function ownership(value: string): string {
  const words: Record<string, string> = {
    permanent: "Permanent: nobody can take it back",
    revocable: "Revocable: the namespace owner can still reclaim it",
    expiring: "Expiring: it ends at its expiry unless renewed",
  };
  return words[value] ?? value;
}

/** A lifecycle action of a name's history (docs/api.md "GET /v1/names/{namespace}/{label}/history"). */
export function lifecycleAction(action: string): string {
  const words: Record<string, string> = {
    issued: "Issued",
    transferred: "Transferred to a new holder",
    reclaimed: "Reclaimed by the namespace owner",
  };
  return words[action] ?? action;
}

/** Besides the registrar's name events, what a name's timeline shows: its records and transfer offers. */
const TIMELINE_TYPES = new Set(["addr_v1", "text_v1", "pay_v1", "disp_v1", "chn_v1", "xfer_v1"]);

export interface LifecycleEntry {
  readonly action: string;
  readonly ledger: number;
  readonly txHash: string;
  readonly at: string | null;
}

export interface ArchivedEvent {
  readonly id: string;
  readonly type: string | null;
  readonly ledger: number;
  readonly txHash: string;
  readonly at: string | null;
}

export interface TimelineRow {
  readonly what: string;
  readonly ledger: number;
  readonly at: string | null;
  readonly txHash: string;
}

/**
 * One timeline of a name, newest first: its lifecycle (the history route: issued, transferred, reclaimed) and its
 * record changes (the archive's events about the name). A registrar event in the transaction of a lifecycle entry
 * is that entry, told once; one in no such transaction is a renewal or an address change, which the history route
 * does not list.
 */
export function timeline(
  lifecycle: readonly LifecycleEntry[],
  archived: readonly ArchivedEvent[],
): TimelineRow[] {
  const lifecycleTx = new Set(lifecycle.map((e) => e.txHash));
  const rows: { row: TimelineRow; order: string }[] = lifecycle.map((e) => ({
    row: { what: lifecycleAction(e.action), ledger: e.ledger, at: e.at, txHash: e.txHash },
    order: archived.find((a) => a.txHash === e.txHash)?.id ?? "",
  }));
  for (const a of archived) {
    const registrar = a.type === "name_v1" || a.type === "name";
    if (registrar && lifecycleTx.has(a.txHash)) continue;
    if (!registrar && !TIMELINE_TYPES.has(a.type ?? "")) continue;
    const what = registrar ? "Renewed, or its built-in address changed" : eventType(a.type);
    rows.push({ row: { what, ledger: a.ledger, at: a.at, txHash: a.txHash }, order: a.id });
  }
  // Newest first: by ledger, then by position in the chain (event ids sort in chain order as text).
  rows.sort((x, y) => y.row.ledger - x.row.ledger || (y.order > x.order ? 1 : y.order < x.order ? -1 : 0));
  return rows.map((r) => r.row);
}

/** A change event's type (docs/webhooks.md "Change types"), as the webhooks page offers and logs it. */
export function changeType(type: string): string {
  const words: Record<string, string> = {
    "name.issued": "a name was issued",
    "name.renewed": "a name was renewed",
    "name.transferred": "a name changed holder",
    "name.reclaimed": "a name was reclaimed by the namespace owner",
    "name.address_changed": "a name's pay-to address changed",
    "record.payment_changed": "a payment instruction changed",
    "record.text_changed": "a text record changed",
    "record.chain_address_changed": "an address on another network changed",
    "primary.changed": "an account's primary name changed",
    "subname.created": "a subname was created",
    "subname.removed": "a subname was removed",
    "namespace.policy_changed": "the namespace's policy changed",
    "namespace.transferred": "the namespace changed owner",
    "market.listed": "the namespace was listed for sale",
    "market.sold": "the namespace was sold",
    "claim.announced": "a claim on the namespace was announced",
    "claim.objected": "a claim on the namespace was objected to",
    "claim.awarded": "a claim on the namespace was awarded",
    "billing.paid": "billing was paid",
    "billing.lapsed": "billing lapsed",
  };
  return words[type] ?? `a change of another kind (${type.replaceAll(/[._]/g, " ")})`;
}

/** A webhook delivery's state (docs/webhooks.md "Deliveries"). */
export function deliveryState(state: string): string {
  const words: Record<string, string> = {
    pending: "waiting to be sent",
    delivered: "delivered",
    failed: "failed",
  };
  return words[state] ?? state;
}

/**
 * Why a webhook attempt got no answer, in words: the service logs the network error as Node gave it ("connect
 * ECONNREFUSED 127.0.0.1:18599", packages/server/src/webhooks/send.ts), whose code tells an owner nothing. Null when
 * the text is already words (a timeout, "target refused: …") or no known code is in it: then it is shown as it is.
 */
export function attemptError(error: string): string | null {
  const words: readonly [RegExp, string][] = [
    [/\bECONNREFUSED\b/, "the receiver refused the connection (nothing listens at that address)"],
    [/\b(?:ENOTFOUND|EAI_AGAIN)\b/, "the receiver's host name could not be found"],
    [/\b(?:ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)\b/, "the connection to the receiver timed out"],
    [/\b(?:ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/, "the receiver cut the connection"],
    [/\b(?:EHOSTUNREACH|ENETUNREACH)\b/, "the receiver's network cannot be reached"],
    [
      /\b(?:CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_\w+)\b/,
      "the receiver's TLS certificate was not accepted",
    ],
  ];
  for (const [code, said] of words) if (code.test(error)) return said;
  return null;
}

/** A claim-fee receipt's outcome (docs/api.md "Claim fee"): what became of the fee. */
export function feeOutcome(outcome: string): string {
  const words: Record<string, string> = {
    Held: "held while the claim is live",
    Awarded: "kept: the claim was awarded",
    Rejected: "refunded: the claim was rejected",
    Withdrawn: "partly refunded: the claim was withdrawn",
    Expired: "partly refunded: the claim expired",
    Stuck: "refunded: the claim was stuck",
  };
  return words[outcome] ?? outcome;
}

/** A claim's basis or an objection's, a contract symbol such as `prior_use`, as words. */
export function basis(symbol: string): string {
  return symbol.replaceAll("_", " ");
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * A name's display-name and primary-name flags (GET /v1/records: each judged for the name's pay-to `address`, null
 * when there is no address or the read failed) as sentences.
 */
export function nameFlags(records: {
  readonly name: string;
  readonly address: string | null;
  readonly displayName: boolean | null;
  readonly primaryName: boolean | null;
}): { readonly display: string; readonly primary: string } {
  const { name, address } = records;
  const namespace = name.split(".").at(-1) ?? name;
  if (address === null) {
    const none = `${name} pays to no address, so it is no account's display or primary name.`;
    return { display: none, primary: none };
  }
  const display =
    records.displayName === null
      ? `Whether ${name} is the display name of ${address} in ${namespace} could not be checked.`
      : `${name} is ${records.displayName ? "" : "not "}the display name of ${address} in ${namespace}.`;
  const primary =
    records.primaryName === null
      ? `Whether ${name} is its primary name could not be checked.`
      : `${name} is ${records.primaryName ? "" : "not "}its primary name.`;
  return { display, primary };
}
