// The holder's and owner's forms' building blocks: a labelled field whose problem (the service's own rule, from
// @namereg/protocol's records.ts and labels.ts) is said in words beside it before anything is asked, and the Edit
// button that opens one form in place (only one open at a time: the page stays a page, not a stack of forms).
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function Field(props: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onInput: (value: string) => void;
  /** What is wrong with the value, in words; null when nothing is. */
  readonly problem: string | null;
  /** Whether to say the problem now: once something was written, or the person tried to go on. */
  readonly show: boolean;
  readonly hint?: string;
  readonly mono?: boolean;
  readonly required?: boolean;
  readonly autoFocus?: boolean;
}): JSX.Element {
  const said = props.show && props.problem !== null;
  const hintId = `${props.id}-hint`;
  const problemId = `${props.id}-problem`;
  const described = [props.hint === undefined ? null : hintId, said ? problemId : null].filter(Boolean);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.autoFocus) input.current?.focus();
  }, []);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={input}
        required={props.required}
        autocomplete="off"
        spellcheck={false}
        class={props.mono ? "mono" : undefined}
        aria-invalid={said ? "true" : undefined}
        aria-describedby={described.length === 0 ? undefined : described.join(" ")}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.hint === undefined ? null : (
        <p id={hintId} class="hint">
          {props.hint}
        </p>
      )}
      {said ? (
        <p id={problemId} class="field-problem" data-field-problem={props.id}>
          {props.problem}
        </p>
      ) : null}
    </div>
  );
}

/** The button that opens (and closes) one form in place; its name says what it edits. */
export function EditButton(props: {
  readonly label: string;
  readonly open: boolean;
  readonly onToggle: () => void;
  readonly controls: string;
  readonly children?: ComponentChildren;
}): JSX.Element {
  return (
    <button
      type="button"
      class="secondary"
      aria-expanded={props.open ? "true" : "false"}
      aria-controls={props.controls}
      aria-label={props.label}
      onClick={props.onToggle}
    >
      {props.children ?? "Edit"}
    </button>
  );
}

/** The row that ends a form opened in place: its submit button, named for what it does, and Cancel to close it. */
export function EditorButtons(props: {
  readonly submit: string;
  readonly busy: boolean;
  readonly onCancel: () => void;
}): JSX.Element {
  return (
    <p class="row">
      <button type="submit" disabled={props.busy}>
        {props.submit}
      </button>
      <button type="button" class="secondary" onClick={props.onCancel}>
        Cancel
      </button>
    </p>
  );
}
