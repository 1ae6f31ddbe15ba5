// A name page's subname controls for the name's holder: create `child.<name>` paying to an account, or remove an
// active subname, each through the action flow (review in words, sign in the wallet, follow to the result).
// Shown in full only to the signed-in holder; anyone else reads one line saying who can (and, under a policy that
// forbids new subnames, that nobody can create one).
//
// Use: `<HolderSubnames name="alice.acme" holder={record.holder} subnames={list} policy={list.policy}
// onChanged={reload} />` under the
// name page's subname list.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { useSession } from "../wallet/session.ts";
import { subnameManagement } from "../words.ts";
import { useActionRun } from "./action-flow.tsx";

export function HolderSubnames(props: {
  readonly name: string;
  readonly holder: string;
  /** The name's subnames as the list route gave them (only active ones can be removed). */
  readonly subnames: readonly { readonly name: string; readonly active: boolean }[];
  /** The namespace's subname policy as the list route gave it; null until it is read. */
  readonly policy: string | null;
  readonly onChanged: () => void;
}): JSX.Element | null {
  const session = useSession();
  const [child, setChild] = useState("");
  const [payTo, setPayTo] = useState(props.holder);
  const { start, busy, flow } = useActionRun(() => {
    setChild("");
    props.onChanged();
  });
  if (session?.account !== props.holder) {
    const who = subnameManagement(props.name, props.policy);
    return who === null ? null : <p class="hint">{who}</p>;
  }
  const active = props.subnames.filter((s) => s.active);
  return (
    <section class="manage" aria-labelledby="manage-subnames-title">
      <h3 id="manage-subnames-title">Manage subnames</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const label = child.trim().toLowerCase();
          const to = payTo.trim();
          if (label === "" || to === "") return;
          const name = `${label}.${props.name}`;
          start(() => import("./subnames.ts").then((m) => m.createSubname(name, to)));
        }}
      >
        <label for="subname-child">New subname</label>
        <p class="row">
          <input
            id="subname-child"
            required
            autocomplete="off"
            spellcheck={false}
            aria-describedby="subname-child-hint"
            value={child}
            onInput={(e) => setChild(e.currentTarget.value)}
          />
          <span>.{props.name}</span>
        </p>
        <p id="subname-child-hint" class="hint">
          A label: 1 to 63 of a-z, 0-9 and “-”.
        </p>
        <label for="subname-pay-to">Pays to</label>
        <input
          id="subname-pay-to"
          required
          autocomplete="off"
          spellcheck={false}
          class="mono"
          aria-describedby="subname-pay-to-hint"
          value={payTo}
          onInput={(e) => setPayTo(e.currentTarget.value)}
        />
        <p id="subname-pay-to-hint" class="hint">
          The account (G… or C…) payments to the subname go to.
        </p>
        <p class="row">
          <button type="submit" disabled={busy}>
            Create subname
          </button>
        </p>
      </form>
      {active.length === 0 ? null : (
        <ul class="plain-list" aria-label="Remove a subname">
          {active.map((s) => (
            <li key={s.name} class="row">
              <span>{s.name}</span>
              <button
                type="button"
                class="secondary"
                disabled={busy}
                onClick={() => start(() => import("./subnames.ts").then((m) => m.removeSubname(s.name)))}
              >
                Remove {s.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {flow}
    </section>
  );
}
