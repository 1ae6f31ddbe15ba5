// The Manage section of a name page, for its signed-in holder: the registrar's built-in pay-to address (behind its
// Edit; label.namespace only) and — signed by the account the name pays to — making the name that account's display
// name or primary name. The records themselves are edited in place in Records (holder-records.tsx).
//
// Use: `<HolderManage name="alice.acme" records={records} />` for the holder.
import { stellarAddressProblem } from "@namereg/protocol/records";
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { useSession } from "../wallet/session.ts";
import { nameFlags } from "../words.ts";
import type { Action, LoadAction } from "./action.ts";
import { useActionRun } from "./action-flow.tsx";
import { EditButton, EditorButtons, Field } from "./fields.tsx";
import type { Records } from "./holder-records.tsx";

const load =
  (pick: (m: typeof import("./records.ts")) => Action): LoadAction =>
  () =>
    import("./records.ts").then(pick);

export function HolderManage(props: {
  readonly name: string;
  readonly records: Records | null;
}): JSX.Element | null {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState("");
  const [tried, setTried] = useState(false);
  const { start, busy, flow } = useActionRun(() => {
    setOpen(false);
    setAddress("");
    setTried(false);
  });
  if (session === null) return null;
  const { name, records } = props;
  const subname = name.split(".").length > 2;
  // Display and primary names are signed by the name's pay-to address: offered when that is the signed-in account.
  const paysHere = records?.address === session.account;
  const problem = stellarAddressProblem(address.trim());
  const flags = records === null ? null : nameFlags({ ...records, name });
  return (
    <>
      {subname ? null : (
        <>
          <h3>Built-in address</h3>
          <p class="row">
            <span>
              The registrar's own pay-to address of {name}; a payment instruction, when set, wins in lookup.
            </span>
            <EditButton
              label="Edit the built-in address"
              controls="built-in-address"
              open={open}
              onToggle={() => setOpen((o) => !o)}
            />
          </p>
          <div id="built-in-address">
            {open ? (
              <form
                class="editor"
                aria-label="Edit the built-in address"
                onSubmit={(event) => {
                  event.preventDefault();
                  setTried(true);
                  if (problem === null) start(load((m) => m.setNameAddress(name, address.trim())));
                }}
              >
                <Field
                  id="name-address"
                  label="New address"
                  value={address}
                  onInput={setAddress}
                  problem={problem}
                  show={tried || address !== ""}
                  mono
                  required
                  autoFocus
                />
                <EditorButtons submit="Set address" busy={busy} onCancel={() => setOpen(false)} />
              </form>
            ) : null}
          </div>
        </>
      )}
      <h3>Display and primary name</h3>
      {flags === null ? null : (
        <p class="breakable">
          Now: {flags.display}
          {flags.display === flags.primary ? null : ` ${flags.primary}`}
        </p>
      )}
      {paysHere ? (
        // What is already so (the line above says it) is not offered again: "Make it your display name" beside
        // "alice.acme is the display name of …" read as if it were not.
        records?.displayName === true && records.primaryName === true ? null : (
          <p class="row">
            {records?.displayName === true ? null : (
              <button
                type="button"
                disabled={busy}
                onClick={() => start(load((m) => m.setDisplayName(name)))}
              >
                Make it your display name
              </button>
            )}
            {records?.primaryName === true ? null : (
              <button
                type="button"
                disabled={busy}
                onClick={() => start(load((m) => m.setPrimaryName(name)))}
              >
                Make it your primary name
              </button>
            )}
          </p>
        )
      ) : (
        <p class="hint">The account {name} pays to signs these; sign in with it to set them.</p>
      )}
      {flow}
    </>
  );
}
