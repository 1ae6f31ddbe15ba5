// A name page's subname controls for the name's holder: "Create a subname" opens its form in place (the label and
// the account it pays to, each held to the service's rules as typed), and each active subname has its Remove; every
// change goes through the action flow (review in words, sign in the wallet, follow to the result). Anyone else reads
// one line saying who can (and, under a policy that forbids new subnames, that nobody can create one).
//
// Use: `<HolderSubnames name="alice.acme" holder={record.holder} subnames={list} policy={list.policy} />` under the
// name page's subname list.
import { labelWords, stellarAddressProblem } from "@namereg/protocol/records";
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { useSession } from "../wallet/session.ts";
import { subnameManagement } from "../words.ts";
import { useActionRun } from "./action-flow.tsx";
import { EditButton, EditorButtons, Field } from "./fields.tsx";

export function HolderSubnames(props: {
  readonly name: string;
  readonly holder: string;
  /** The name's subnames as the list route gave them (only active ones can be removed). */
  readonly subnames: readonly { readonly name: string; readonly active: boolean }[];
  /** The namespace's subname policy as the list route gave it; null until it is read. */
  readonly policy: string | null;
}): JSX.Element | null {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [child, setChild] = useState("");
  const [payTo, setPayTo] = useState(props.holder);
  const [tried, setTried] = useState(false);
  const { start, busy, flow } = useActionRun(() => {
    setChild("");
    setTried(false);
    setOpen(false);
  });
  if (session?.account !== props.holder) {
    const who = subnameManagement(props.name, props.policy);
    return who === null ? null : <p class="hint">{who}</p>;
  }
  const active = props.subnames.filter((s) => s.active);
  const label = child.trim().toLowerCase();
  const labelProblem = labelWords(label);
  const payProblem = stellarAddressProblem(payTo.trim());
  return (
    <div class="manage">
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
      <p class="row">
        <EditButton
          label="Create a subname"
          controls="subname-editor"
          open={open}
          onToggle={() => setOpen((o) => !o)}
        >
          Create a subname
        </EditButton>
      </p>
      <div id="subname-editor">
        {open ? (
          <form
            class="editor"
            aria-label="Create a subname"
            onSubmit={(event) => {
              event.preventDefault();
              setTried(true);
              if (labelProblem !== null || payProblem !== null) return;
              const name = `${label}.${props.name}`;
              start(() => import("./subnames.ts").then((m) => m.createSubname(name, payTo.trim())));
            }}
          >
            <Field
              id="subname-child"
              label={`New subname (… .${props.name})`}
              value={child}
              onInput={setChild}
              problem={labelProblem}
              show={tried || child !== ""}
              hint="A label: 1 to 63 of a-z, 0-9 and “-”."
              required
              autoFocus
            />
            <Field
              id="subname-pay-to"
              label="Pays to"
              value={payTo}
              onInput={setPayTo}
              problem={payProblem}
              show={tried || payTo !== props.holder}
              hint="The account (G… or C…) payments to the subname go to."
              mono
              required
            />
            <EditorButtons submit="Create subname" busy={busy} onCancel={() => setOpen(false)} />
          </form>
        ) : null}
      </div>
      {flow}
    </div>
  );
}
