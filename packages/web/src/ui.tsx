// Small building blocks shared by the pages: a loader hook, tables that stack into lists on a phone, definition
// lists, error notes by meaning, and a link per kind of entity.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Explained, explain } from "./errors.ts";
import { readableTime } from "./format.ts";
import { href } from "./routes.ts";
import { componentState } from "./words.ts";

export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "ok"; readonly value: T }
  | { readonly state: "error"; readonly error: Explained };

/** Runs `load` when `key` changes; an answer for an older key never replaces a newer one. */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [result, setResult] = useState<{ key: string; loaded: Loaded<T> }>({
    key,
    loaded: { state: "loading" },
  });
  useEffect(() => {
    let current = true;
    setResult({ key, loaded: { state: "loading" } });
    load().then(
      (value) => current && setResult({ key, loaded: { state: "ok", value } }),
      (error: unknown) => current && setResult({ key, loaded: { state: "error", error: explain(error) } }),
    );
    return () => {
      current = false;
    };
    // `load` is a fresh closure each render; the key says when it asks something new.
  }, [key]);
  return result.key === key ? result.loaded : { state: "loading" };
}

export function ErrorNote({ error }: { readonly error: Explained }): JSX.Element {
  return (
    <div class="error" role="alert" data-code={error.code}>
      <p>{error.sentence}</p>
      {error.detail === undefined ? null : <p class="hint">Details: {error.detail}</p>}
    </div>
  );
}

/** A section's body once its data arrived: a loading line, the error in words, or `render(value)`. */
export function Section<T>(props: {
  readonly loaded: Loaded<T>;
  readonly render: (value: T) => ComponentChildren;
}): JSX.Element {
  const { loaded } = props;
  if (loaded.state === "loading") return <p class="hint">Loading…</p>;
  if (loaded.state === "error") return <ErrorNote error={loaded.error} />;
  return <>{props.render(loaded.value)}</>;
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

/** A chain time in the reader's locale (format.ts); the ISO instant stays in `datetime` and shows on hover. */
export const When = ({ at }: { readonly at: string }) => (
  <time class="when" dateTime={at} title={at}>
    {readableTime(at)}
  </time>
);

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
