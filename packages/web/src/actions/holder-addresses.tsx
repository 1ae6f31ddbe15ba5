// A name page's network addresses: each network the namespace allows with the name's address there (read live).
// Everyone reads the list; the signed-in holder also gets an Edit per network (its form opens in place, the address
// held as typed to the service's rule) and a Remove, through the action flow. Nothing is shown for a namespace without a resolver.
//
// Use: `<HolderAddresses name="alice.acme" namespace="acme" label="alice" holder={record.holder} />` on the name page.
import { chainAddressProblem } from "@namereg/protocol/address";
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { ErrorNote, type Loaded, Mono, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { useActionRun } from "./action-flow.tsx";
import { EditButton, EditorButtons, Field } from "./fields.tsx";

/** The allowed networks and the name's address on each, or null when the namespace has no resolver. */
async function addresses(namespace: string, label: string) {
  const path = { path: { namespace } };
  const info = await unwrap(api.GET("/v1/namespaces/{namespace}", { params: path }));
  if (info.resolverId === null) return null;
  const { networks } = await unwrap(api.GET("/v1/chain-policy/{namespace}", { params: path }));
  return Promise.all(
    networks.map(async (network) => {
      const at = await unwrap(
        api.GET("/v1/chain-address/{namespace}/{name}/{network}", {
          params: { path: { namespace, name: label, network } },
        }),
      );
      return { network, address: at.address };
    }),
  );
}

export function HolderAddresses(props: {
  readonly name: string;
  readonly namespace: string;
  readonly label: string;
  readonly holder: string;
}): JSX.Element | null {
  const session = useSession();
  const [read, setRead] = useState(0);
  const holder = session?.account === props.holder;
  const loaded = useLoad(`addr:${props.name}:${read}`, () => addresses(props.namespace, props.label));
  const [editing, setEditing] = useState<string | null>(null);
  const { start, busy, flow } = useActionRun(() => {
    setEditing(null);
    setRead((n) => n + 1);
  });
  if (!holder) return <NetworkAddresses loaded={loaded} />;
  // While the list is read again after a change it says so (Loading…) rather than show the list from before it; the
  // flow that changed it stays.
  const current = loaded.state === "ok" ? loaded.value : null;
  if (loaded.state === "ok" && current === null && flow === null) return null;
  return (
    <section class="manage" aria-labelledby="manage-addresses-title">
      <h3 id="manage-addresses-title">Network addresses</h3>
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {loaded.state === "loading" ? <p class="hint">Loading…</p> : null}
      {current === null ? null : current.length === 0 ? (
        <p>The namespace allows no network addresses.</p>
      ) : (
        <ul class="plain-list" aria-label="Addresses on other networks">
          {current.map((c) => (
            <li key={c.network}>
              <p class="row">
                <span>
                  {c.network}: {c.address === null ? "none" : <Mono>{c.address}</Mono>}
                </span>
                <EditButton
                  label={`Edit the ${c.network} address`}
                  controls={`address-editor-${c.network}`}
                  open={editing === c.network}
                  onToggle={() => setEditing((e) => (e === c.network ? null : c.network))}
                />
                {c.address === null ? null : (
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy}
                    onClick={() =>
                      start(() =>
                        import("./chain-addresses.ts").then((m) =>
                          m.setChainAddress(props.name, c.network, null),
                        ),
                      )
                    }
                  >
                    Remove the {c.network} address
                  </button>
                )}
              </p>
              <div id={`address-editor-${c.network}`}>
                {editing === c.network ? (
                  <AddressForm
                    network={c.network}
                    busy={busy}
                    onSet={(to) =>
                      start(() =>
                        import("./chain-addresses.ts").then((m) =>
                          m.setChainAddress(props.name, c.network, to),
                        ),
                      )
                    }
                    onCancel={() => setEditing(null)}
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {flow}
    </section>
  );
}

/** One network's address, held as typed to the rule the service's prepare route holds it to. */
function AddressForm(props: {
  readonly network: string;
  readonly busy: boolean;
  readonly onSet: (address: string) => void;
  readonly onCancel: () => void;
}): JSX.Element {
  const [address, setAddress] = useState("");
  const [tried, setTried] = useState(false);
  const problem = chainAddressProblem(props.network, address.trim());
  return (
    <form
      class="editor"
      aria-label={`Edit the ${props.network} address`}
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problem === null) props.onSet(address.trim());
      }}
    >
      <Field
        id="address-value"
        label={`Address on ${props.network}`}
        value={address}
        onInput={setAddress}
        problem={problem}
        show={tried || address !== ""}
        mono
        required
        autoFocus
      />
      <EditorButtons submit="Set address" busy={props.busy} onCancel={props.onCancel} />
    </form>
  );
}

/** The list as anyone reads it: an address, or "none", per allowed network; a failed read is said in words. */
function NetworkAddresses(props: {
  readonly loaded: Loaded<Awaited<ReturnType<typeof addresses>>>;
}): JSX.Element | null {
  const { loaded } = props;
  if (loaded.state === "loading" || (loaded.state === "ok" && loaded.value === null)) return null;
  return (
    <section aria-labelledby="network-addresses-title">
      <h3 id="network-addresses-title">Network addresses</h3>
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {loaded.state === "ok" && loaded.value !== null ? (
        loaded.value.length === 0 ? (
          <p>The namespace allows no network addresses.</p>
        ) : (
          <ul class="plain-list" aria-label="Addresses on other networks">
            {loaded.value.map((c) => (
              <li key={c.network}>
                {c.network}: {c.address === null ? "none" : <Mono>{c.address}</Mono>}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}
