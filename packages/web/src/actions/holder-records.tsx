// A name's records as its signed-in holder reads them: the same table anyone reads, each row with its own Edit (and
// a text record's Remove), and "Add a text record"; Edit opens that one form in place, under the table, with the
// current value filled in. Each field is held to the service's own rules (@namereg/protocol/records) as it is
// typed, so a key that is no contract symbol or a memo past 28 bytes is said beside the field, before any request.
// Each change goes through the action flow (review in words, sign in the wallet, follow to the result).
//
// Use: `<HolderRecords name="alice.acme" records={records} />` in the name page's Records section, for the holder.
import {
  memoProblem,
  stellarAddressProblem,
  textKeyProblem,
  textValueProblem,
} from "@namereg/protocol/records";
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { recordLink } from "../format.ts";
import { AccountLink, Table, UserLink, UserText } from "../ui.tsx";
import type { Action, LoadAction } from "./action.ts";
import { useActionRun } from "./action-flow.tsx";
import { EditButton, EditorButtons, Field } from "./fields.tsx";

export type Records = {
  readonly address: string | null;
  readonly text: Readonly<Record<string, string>>;
  readonly displayName: boolean | null;
  readonly primaryName: boolean | null;
};

/** The action, loaded with its module (records.ts) when it runs. */
const load =
  (pick: (m: typeof import("./records.ts")) => Action): LoadAction =>
  () =>
    import("./records.ts").then(pick);

type Open = { readonly kind: "text"; readonly key: string | null } | { readonly kind: "payment" } | null;

const EDITOR_ID = "records-editor";

export function HolderRecords(props: { readonly name: string; readonly records: Records }): JSX.Element {
  const { name, records } = props;
  const [open, setOpen] = useState<Open>(null);
  const { start, busy, flow } = useActionRun(() => setOpen(null));
  const toggle = (next: NonNullable<Open>) =>
    setOpen((now) => (JSON.stringify(now) === JSON.stringify(next) ? null : next));
  const isOpen = (next: NonNullable<Open>) => JSON.stringify(open) === JSON.stringify(next);
  const text = Object.entries(records.text);
  return (
    <>
      <Table
        caption="Records"
        captionHidden
        headings={["Key", "Value", "Change"]}
        rows={[
          [
            "address",
            records.address === null ? "—" : <AccountLink address={records.address} key="a" />,
            <EditButton
              key="e"
              label="Edit the payment instruction"
              controls={EDITOR_ID}
              open={isOpen({ kind: "payment" })}
              onToggle={() => toggle({ kind: "payment" })}
            />,
          ],
          ...text.map(([k, v]) => [
            k,
            recordLink(k, v) === null ? <UserText text={v} key="v" /> : <UserLink value={v} key="v" />,
            <span class="row" key="c">
              <EditButton
                label={`Edit text record ${k}`}
                controls={EDITOR_ID}
                open={isOpen({ kind: "text", key: k })}
                onToggle={() => toggle({ kind: "text", key: k })}
              />
              <button
                type="button"
                class="secondary"
                disabled={busy}
                aria-label={`Remove text record ${k}`}
                onClick={() => start(load((m) => m.setText(name, k, null)))}
              >
                Remove
              </button>
            </span>,
          ]),
        ]}
      />
      <p class="row">
        <EditButton
          label="Add a text record"
          controls={EDITOR_ID}
          open={isOpen({ kind: "text", key: null })}
          onToggle={() => toggle({ kind: "text", key: null })}
        >
          Add a text record
        </EditButton>
      </p>
      <div id={EDITOR_ID}>
        {open?.kind === "text" ? (
          <TextForm
            key={open.key ?? ""}
            name={name}
            fixedKey={open.key}
            value={open.key === null ? "" : (records.text[open.key] ?? "")}
            busy={busy}
            onSet={(k, v) => start(load((m) => m.setText(name, k, v)))}
            onCancel={() => setOpen(null)}
          />
        ) : null}
        {open?.kind === "payment" ? (
          <PaymentForm
            name={name}
            address={records.address ?? ""}
            busy={busy}
            onSet={(to, memo) => start(load((m) => m.setPayment(name, to, memo)))}
            onCancel={() => setOpen(null)}
          />
        ) : null}
      </div>
      {flow}
    </>
  );
}

function TextForm(props: {
  readonly name: string;
  /** The record being edited; null: a new one, whose key is written here. */
  readonly fixedKey: string | null;
  readonly value: string;
  readonly busy: boolean;
  readonly onSet: (key: string, value: string) => void;
  readonly onCancel: () => void;
}): JSX.Element {
  const [key, setKey] = useState(props.fixedKey ?? "");
  const [value, setValue] = useState(props.value);
  const [tried, setTried] = useState(false);
  const keyProblem = textKeyProblem(key.trim());
  const valueProblem = textValueProblem(value);
  const title = props.fixedKey === null ? "Add a text record" : `Edit text record ${props.fixedKey}`;
  return (
    <form
      class="editor"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (keyProblem !== null || valueProblem !== null) return;
        props.onSet(key.trim(), value);
      }}
    >
      <h3>{title}</h3>
      {props.fixedKey === null ? (
        <Field
          id="text-key"
          label="Key"
          value={key}
          onInput={setKey}
          problem={keyProblem}
          show={tried || key !== ""}
          hint="Letters, digits and “_” (a contract symbol), e.g. url or email."
          required
          autoFocus
        />
      ) : null}
      <Field
        id="text-value"
        label="Value"
        value={value}
        onInput={setValue}
        problem={valueProblem}
        show={tried}
        autoFocus={props.fixedKey !== null}
      />
      <EditorButtons submit="Set text record" busy={props.busy} onCancel={props.onCancel} />
    </form>
  );
}

function PaymentForm(props: {
  readonly name: string;
  readonly address: string;
  readonly busy: boolean;
  readonly onSet: (address: string, memo: string | null) => void;
  readonly onCancel: () => void;
}): JSX.Element {
  const [payTo, setPayTo] = useState(props.address);
  const [memo, setMemo] = useState("");
  const [tried, setTried] = useState(false);
  const addressProblem = stellarAddressProblem(payTo.trim());
  const memoWrong = memoProblem(memo.trim());
  return (
    <form
      class="editor"
      aria-label="Edit the payment instruction"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (addressProblem !== null || memoWrong !== null) return;
        const m = memo.trim();
        props.onSet(payTo.trim(), m === "" ? null : m);
      }}
    >
      <h3>Payment instruction</h3>
      <p class="hint">What payers of {props.name} are told: the account to pay and, if you want, a memo.</p>
      <Field
        id="payment-address"
        label="Pay to"
        value={payTo}
        onInput={setPayTo}
        problem={addressProblem}
        show={tried || payTo !== props.address}
        mono
        required
        autoFocus
      />
      <Field
        id="payment-memo"
        label="Memo (optional)"
        value={memo}
        onInput={setMemo}
        problem={memoWrong}
        show
        hint="At most 28 bytes: a Stellar text memo."
      />
      <EditorButtons submit="Set payment instruction" busy={props.busy} onCancel={props.onCancel} />
    </form>
  );
}
