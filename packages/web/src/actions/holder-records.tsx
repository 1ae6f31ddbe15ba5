// A name page's own records for the name's holder: its text records (set one, remove each), the payment
// instruction (address and memo), the built-in pay-to address, and — for the account the name pays to — making it
// that account's display name or primary name. The current values are shown beside the forms; each change goes
// through the action flow (review in words, sign in the wallet, follow to the result). Shown only to the signed-in
// holder.
//
// Use: `<HolderRecords name="alice.acme" holder={record.holder} records={records} onChanged={reload} />` under the
// name page's record table (`records`: the GET /v1/records answer).
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { Mono } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { nameFlags } from "../words.ts";
import type { Action, LoadAction } from "./action.ts";
import { useActionRun } from "./action-flow.tsx";

type Records = {
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

export function HolderRecords(props: {
  readonly name: string;
  readonly holder: string;
  readonly records: Records | null;
  readonly onChanged: () => void;
}): JSX.Element | null {
  const session = useSession();
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [payTo, setPayTo] = useState("");
  const [memo, setMemo] = useState("");
  const [address, setAddress] = useState("");
  const { start, busy, flow } = useActionRun(() => {
    // A form is empty again after its change went through.
    setKey("");
    setValue("");
    setPayTo("");
    setMemo("");
    setAddress("");
    props.onChanged();
  });
  if (session?.account !== props.holder) return null;
  const { name } = props;
  const text = Object.entries(props.records?.text ?? {});
  const subname = name.split(".").length > 2;
  // Display and primary names are signed by the name's pay-to address: offered when that is the signed-in account.
  const paysHere = props.records?.address === session.account;
  return (
    <section class="manage" aria-labelledby="manage-records-title">
      <h3 id="manage-records-title">Manage records</h3>
      <h4>Text records</h4>
      {text.length === 0 ? (
        <p>{name} has no text records.</p>
      ) : (
        <ul class="plain-list" aria-label="Text records">
          {text.map(([k, v]) => (
            <li key={k} class="row">
              <span>
                {k}: {v}
              </span>
              <button
                type="button"
                class="secondary"
                disabled={busy}
                onClick={() => start(load((m) => m.setText(name, k, null)))}
              >
                Remove text record {k}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const k = key.trim();
          if (k === "") return;
          start(load((m) => m.setText(name, k, value)));
        }}
      >
        <label for="text-key">Key</label>
        <input
          id="text-key"
          required
          autocomplete="off"
          spellcheck={false}
          aria-describedby="text-key-hint"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p id="text-key-hint" class="hint">
          Letters, digits and “_” (a contract symbol), e.g. url or email.
        </p>
        <label for="text-value">Value</label>
        <input
          id="text-value"
          autocomplete="off"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
        <p class="row">
          <button type="submit" disabled={busy}>
            Set text record
          </button>
        </p>
      </form>
      <h4>Payment instruction</h4>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const to = payTo.trim();
          if (to === "") return;
          const m = memo.trim();
          start(load((mod) => mod.setPayment(name, to, m === "" ? null : m)));
        }}
      >
        <label for="payment-address">Pay to</label>
        <input
          id="payment-address"
          required
          autocomplete="off"
          spellcheck={false}
          class="mono"
          value={payTo}
          onInput={(e) => setPayTo(e.currentTarget.value)}
        />
        <label for="payment-memo">Memo (optional)</label>
        <input
          id="payment-memo"
          autocomplete="off"
          value={memo}
          onInput={(e) => setMemo(e.currentTarget.value)}
        />
        <p class="row">
          <button type="submit" disabled={busy}>
            Set payment instruction
          </button>
        </p>
      </form>
      {subname ? null : (
        <>
          <h4>Address</h4>
          <p>Now: {props.records?.address == null ? "none" : <Mono>{props.records.address}</Mono>}</p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const to = address.trim();
              if (to === "") return;
              start(load((m) => m.setNameAddress(name, to)));
            }}
          >
            <label for="name-address">New address</label>
            <input
              id="name-address"
              required
              autocomplete="off"
              spellcheck={false}
              class="mono"
              value={address}
              onInput={(e) => setAddress(e.currentTarget.value)}
            />
            <p class="row">
              <button type="submit" disabled={busy}>
                Set address
              </button>
            </p>
          </form>
        </>
      )}
      <h4>Display and primary name</h4>
      {props.records === null ? null : <FlagsNow name={name} records={props.records} />}
      {paysHere ? (
        <p class="row">
          <button type="button" disabled={busy} onClick={() => start(load((m) => m.setDisplayName(name)))}>
            Make it your display name
          </button>
          <button type="button" disabled={busy} onClick={() => start(load((m) => m.setPrimaryName(name)))}>
            Make it your primary name
          </button>
        </p>
      ) : (
        <p class="hint">The account {name} pays to signs these; sign in with it to set them.</p>
      )}
      {flow}
    </section>
  );
}

/** Whether the name is now its pay-to account's display and primary name, in words (null: could not be checked). */
function FlagsNow(props: { readonly name: string; readonly records: Records }): JSX.Element {
  const flags = nameFlags({ ...props.records, name: props.name });
  return (
    <p class="breakable">
      Now: {flags.display}
      {flags.display === flags.primary ? null : ` ${flags.primary}`}
    </p>
  );
}
