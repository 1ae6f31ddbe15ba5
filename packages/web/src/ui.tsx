// Small building blocks shared by the pages: a loader hook (on the live cache), tables that stack into lists on a phone, definition
// lists, error notes by meaning, and a link per kind of entity.
import type { ComponentChildren, JSX } from "preact";
import { useEffect } from "preact/hooks";
import { type Explained, withoutRetryAdvice } from "./errors.ts";
import { dateTime, relativeTime, textParts, webAddress } from "./format.ts";
import { type Polling, useQueryResult } from "./live/query.ts";
import { type Loaded, loadedOf, type Stale } from "./loaded.ts";
import { href } from "./routes.ts";
import { componentState } from "./words.ts";

export type { Loaded } from "./loaded.ts";

/**
 * Reads `load` under `key` through the page's cache (live/query.ts): asked when `key` is first shown, and again when a
 * change the stream hears or the person's own transaction concerns it (live/topics.ts), the last answer staying on
 * screen meanwhile. An answer for an older key never replaces a newer one. With `polling`, also asked again on a
 * timer while the tab is visible, for what changes without the chain.
 */
export function useLoad<T>(key: string, load: () => Promise<T>, polling?: Polling): Loaded<T> {
  return loadedOf(useQueryResult(key, load, true, polling));
}

/**
 * `useLoad` that asks only once `ready`: a read the page can foresee failing (the records of a namespace without a
 * resolver, the subnames of a name that does not exist) is never sent, so the browser logs no refused request.
 */
export function useLoadWhen<T>(key: string, ready: boolean, load: () => Promise<T>): Loaded<T> {
  return loadedOf(useQueryResult(key, load, ready));
}

export function ErrorNote({ error }: { readonly error: Explained }): JSX.Element {
  return (
    <div class="error" role="alert" data-code={error.code}>
      <p>{error.sentence}</p>
      {error.detail === undefined ? null : <p class="hint">Details: {error.detail}</p>}
    </div>
  );
}

/**
 * A section's body once its data arrived: a loading line, the error in words, or `render(value)` — after a note
 * when the last read again failed and `value` is the answer before it (loaded.ts).
 */
export function Section<T>(props: {
  readonly loaded: Loaded<T>;
  /** `stale` is set while `value` is the answer before a failed re-read (the note above it says so). */
  readonly render: (value: T, stale?: Stale) => ComponentChildren;
}): JSX.Element {
  const { loaded } = props;
  if (loaded.state === "loading") return <p class="hint">Loading…</p>;
  if (loaded.state === "error") return <ErrorNote error={loaded.error} />;
  return (
    <>
      {loaded.stale === undefined ? null : <StaleNote {...loaded.stale} />}
      {props.render(loaded.value, loaded.stale)}
    </>
  );
}

/**
 * What is shown below could not be read again: why, how old it is, and that the page tries again by itself (a
 * polled read on its timer, any other every few seconds until it gets an answer: live/query.ts), so the person is
 * not told to.
 */
export function StaleNote(props: Stale): JSX.Element {
  return (
    <div class="stale" role="status" data-stale={props.error.code}>
      <p>
        Could not be refreshed: {withoutRetryAdvice(props.error.sentence)} Shown as read at{" "}
        <When at={props.readAt} relative />; the page tries again by itself.
      </p>
      {/* What the service or the browser said, for a report ("…with the details below"), as ErrorNote keeps it. */}
      {props.error.detail === undefined ? null : <Details>{props.error.detail}</Details>}
    </div>
  );
}

/**
 * A table whose rows become stacked cards on a narrow screen (style.css): each cell carries its column's heading
 * in `data-label`, shown before the value when the columns no longer fit.
 */
export function Table(props: {
  readonly caption: string;
  readonly headings: readonly string[];
  readonly rows: readonly (readonly ComponentChildren[])[];
  readonly empty?: string;
  /** The caption only repeats the heading above the table: kept for screen readers, out of sight. */
  readonly captionHidden?: boolean;
}): JSX.Element {
  if (props.rows.length === 0) return <p>{props.empty ?? `${props.caption}: none.`}</p>;
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class={props.captionHidden ? "visually-hidden" : "hint"}>{props.caption}</caption>
        <thead>
          <tr>
            {props.headings.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((cell, j) => (
                <td data-label={props.headings[j]} key={props.headings[j]}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Defs(props: {
  readonly items: readonly (readonly [string, ComponentChildren])[];
}): JSX.Element {
  return (
    <dl>
      {props.items.map(([term, value]) => [
        <dt key={`t-${term}`}>{term}</dt>,
        <dd key={`d-${term}`}>{value}</dd>,
      ])}
    </dl>
  );
}

export const Mono = ({ children }: { readonly children: ComponentChildren }) => (
  <span class="mono">{children}</span>
);

export const NameLink = ({ name }: { readonly name: string }) => <a href={href.name(name)}>{name}</a>;

export const NamespaceLink = ({ namespace }: { readonly namespace: string }) => (
  <a href={href.namespace(namespace)}>{namespace}</a>
);

/** An account as a link to its page; the address in full, in a monospace face that wraps on a phone. */
export const AccountLink = ({ address }: { readonly address: string }) => (
  <a class="mono" href={href.account(address)}>
    {address}
  </a>
);

/** A transaction hash as a link to its events in the archive; the hash in full, breaking anywhere on a phone. */
export const TxLink = ({ hash }: { readonly hash: string }) => (
  <a class="mono" href={href.tx(hash)}>
    {hash}
  </a>
);

/**
 * A chain time in the reader's locale (format.ts), with how far it is from now when `relative` ("in 6 days", "3
 * minutes ago"); the ISO instant stays in `datetime` and shows on hover.
 */
export const When = (props: {
  readonly at: string;
  readonly relative?: boolean;
  /** Text around the time inside a sentence ("ledger 9 (Nov 28, 2026, 4:24 PM)"). */
  readonly prefix?: string;
  readonly suffix?: string;
}) => {
  const far = props.relative ? relativeTime(props.at) : null;
  return (
    <>
      {props.prefix}
      <time class="when" dateTime={props.at} title={props.at}>
        {dateTime(props.at)}
        {far === null ? null : ` (${far})`}
      </time>
      {props.suffix}
    </>
  );
};

/**
 * The machine's own values for whoever needs them (a contract id, a function name, an intent's id, a memo): behind
 * a "Details" disclosure, after the words a person reads.
 */
export const Details = ({
  children,
  summary = "Details",
}: {
  readonly children: ComponentChildren;
  readonly summary?: string;
}) => (
  <details class="details">
    <summary>{summary}</summary>
    <div class="details-body">{children}</div>
  </details>
);

/**
 * Text written by someone else on the chain (a record value, a display name, a claim's evidence): isolated from
 * the page's own text (`<bdi>`: a right-to-left value cannot reorder what follows it) and with its invisible
 * controls named ("[RLO]" where U+202E was), so what is shown is what is there.
 */
export const UserText = ({ text }: { readonly text: string }) => (
  <bdi class="user-text">
    {textParts(text).map((p, i) =>
      p.kind === "text" ? (
        p.text
      ) : (
        <abbr class="control" title={`invisible control character ${p.code}`} key={i}>
          [{p.name}]
        </abbr>
      ),
    )}
  </bdi>
);

/**
 * A web address written by someone else, as a link when it is http(s): shown in the ASCII form the browser opens
 * when its host is not plain ASCII (format.ts `webAddress`), with a note saying so; anything else as text.
 */
export const UserLink = ({ value }: { readonly value: string }) => {
  const address = webAddress(value);
  if (address === null) return <UserText text={value} />;
  return (
    <>
      <a href={address.href} rel="noopener noreferrer nofollow" target="_blank" class="breakable">
        <bdi>{address.text}</bdi>
      </a>
      {address.rewritten ? (
        <span class="hint">
          {" "}
          (written as <UserText text={value} />; shown as the address the browser opens)
        </span>
      ) : null}
    </>
  );
};

/** A contract by its id, linked to its page: its events in the archive. */
export const ContractLink = ({ id }: { readonly id: string }) => (
  <a class="mono" href={href.contract(id)}>
    {id}
  </a>
);

/** A listing of the market, by its namespace. */
export const ListingLink = ({ namespace, children }: { namespace: string; children?: ComponentChildren }) => (
  <a href={href.listing(namespace)}>{children ?? `${namespace} on the market`}</a>
);

/** A claim in the queue. */
export const ClaimLink = ({
  id,
  children,
}: {
  readonly id: string;
  readonly children: ComponentChildren;
}) => <a href={href.claim(id)}>{children}</a>;

/**
 * A link to a page elsewhere that chain data names (a claim's evidence): only http(s) addresses become links, and
 * they tell the browser not to pass this page along; anything else is shown as text.
 */
export const OutsideLink = ({
  url,
  children,
}: {
  readonly url: string;
  readonly children: ComponentChildren;
}) =>
  /^https?:\/\//i.test(url) ? (
    <a href={url} rel="noopener noreferrer nofollow" target="_blank">
      {children}
    </a>
  ) : (
    <span>{children}</span>
  );

/** A component's state in words (words.ts), coloured by the state itself. */
export const State = ({ state }: { readonly state: string }) => (
  <span class={`state state-${state}`}>{componentState(state)}</span>
);

export function Page(props: { readonly title: string; readonly children: ComponentChildren }): JSX.Element {
  useEffect(() => {
    document.title = `${props.title} · namereg`;
  }, [props.title]);
  return (
    <>
      <h1 id="page-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.children}
    </>
  );
}
