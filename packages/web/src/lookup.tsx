// Lookup as you type: one request per pause in typing (250 ms), and a late answer never replaces a newer one.
// Enter goes straight to what was typed: `alice.acme` to the name, `acme` to the namespace, `G…` to the account.
// A choice (Enter or a result) clears the box and closes the results; so does Escape.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "./api.ts";
import { type Explained, explain } from "./errors.ts";
import { accountIn, href, LOOKUP_MAX, lookupRefusal, lookupTarget } from "./routes.ts";
import { ErrorNote, UserText } from "./ui.tsx";

type Answer = Awaited<ReturnType<typeof ask>>;
const ask = (q: string) => unwrap(api.GET("/v1/lookup", { params: { query: { q } } }));

export function Lookup({ navigate }: { readonly navigate: (to: string) => void }): JSX.Element {
  const [query, setQuery] = useState("");
  const [answer, setAnswer] = useState<Answer | Explained | null>(null);
  const seq = useRef(0);
  const account = accountIn(query);
  // After a choice the box is empty again and the results gone: the page that opens is the answer.
  const clear = () => {
    seq.current++;
    setQuery("");
    setAnswer(null);
  };
  const refusal = lookupRefusal(query);
  useEffect(() => {
    const q = query.trim();
    const mine = ++seq.current;
    // An account address is not something the lookup searches (it would answer "nothing found"): the answer is
    // the account's own page, offered without asking.
    // A query longer than the lookup searches is refused in words below, not sent to be refused by the API.
    if (q === "" || accountIn(q) !== null || lookupRefusal(q) !== null) {
      setAnswer(null);
      return;
    }
    const timer = setTimeout(() => {
      ask(q).then(
        (a) => mine === seq.current && setAnswer(a),
        (e: unknown) => mine === seq.current && setAnswer(explain(e)),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [query]);
  return (
    <section aria-labelledby="lookup-title" class="lookup">
      <h2 id="lookup-title">Look up a name</h2>
      <search>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const to = lookupTarget(query);
            if (to === null) return;
            clear();
            navigate(to);
          }}
        >
          <label for="lookup">Name or namespace</label>
          <input
            id="lookup"
            name="q"
            type="search"
            autocomplete="off"
            spellcheck={false}
            maxLength={LOOKUP_MAX}
            placeholder="alice.acme"
            aria-describedby="lookup-hint"
            aria-controls="lookup-results"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") clear();
            }}
          />
          <p id="lookup-hint" class="hint">
            Results appear as you type; Enter opens a name (alice.acme), a namespace (acme) or an account
            (G…).
          </p>
        </form>
      </search>
      <div id="lookup-results" aria-live="polite">
        {refusal !== null ? (
          <p>{refusal}</p>
        ) : account !== null ? (
          <ul class="results" aria-label="Lookup results">
            <li>
              <a class="mono" href={href.account(account)} onClick={clear}>
                {account}
              </a>{" "}
              (account)
            </li>
          </ul>
        ) : answer === null ? null : "sentence" in answer ? (
          <ErrorNote error={answer} />
        ) : answer.names.length + answer.namespaces.length === 0 ? (
          <p>Nothing found for “{answer.q}”.</p>
        ) : (
          <ul class="results" aria-label="Lookup results">
            {answer.names.map((n) => (
              <li key={`n-${n.name}`}>
                <a href={href.name(n.name)} onClick={clear}>
                  {n.name}
                </a>
              </li>
            ))}
            {answer.namespaces.map((n) => (
              <li key={`s-${n.label}`}>
                <a href={href.namespace(n.label)} onClick={clear}>
                  {n.label}
                </a>
                {n.displayName ? (
                  <>
                    {" — "}
                    <UserText text={n.displayName} />
                  </>
                ) : null}{" "}
                (namespace)
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
