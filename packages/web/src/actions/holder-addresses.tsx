// A name page's network addresses: each network the namespace allows with the name's address there (read live).
// Everyone reads the list; the signed-in holder also gets a form to set one and a button to remove each, through
// the action flow. Nothing is shown for a namespace without a resolver.
//
// Use: `<HolderAddresses name="alice.acme" namespace="acme" label="alice" holder={record.holder} />` on the name page.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { ErrorNote, type Loaded, Mono, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { useActionRun } from "./action-flow.tsx";

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
  const [network, setNetwork] = useState("");
  const [address, setAddress] = useState("");
  const { start, busy, flow } = useActionRun(() => {
    setAddress("");
    setRead((n) => n + 1);
  });
  if (!holder) return <NetworkAddresses loaded={loaded} />;
  // The last list read stays on screen while the next one loads, and so does the flow that changed it.
  const current = loaded.state === "ok" ? loaded.value : null;
  if (loaded.state === "ok" && current === null && flow === null) return null;
  const chosen = network === "" ? (current?.[0]?.network ?? "") : network;
  return (
    <section class="manage" aria-labelledby="manage-addresses-title">
      <h3 id="manage-addresses-title">Network addresses</h3>
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      {loaded.state === "loading" ? <p class="hint">Loading…</p> : null}
      {current === null ? null : current.length === 0 ? (
        <p>The namespace allows no network addresses.</p>
      ) : (
        <>
          <ul class="plain-list" aria-label="Addresses on other networks">
            {current.map((c) => (
              <li key={c.network} class="row">
                <span>
                  {c.network}: {c.address === null ? "none" : <Mono>{c.address}</Mono>}
                </span>
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
              </li>
            ))}
          </ul>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const to = address.trim();
              if (chosen === "" || to === "") return;
              start(() =>
                import("./chain-addresses.ts").then((m) => m.setChainAddress(props.name, chosen, to)),
              );
            }}
          >
            <label for="address-network">Network</label>
            <select id="address-network" value={chosen} onChange={(e) => setNetwork(e.currentTarget.value)}>
              {current.map((c) => (
                <option value={c.network} key={c.network}>
                  {c.network}
                </option>
              ))}
            </select>
            <label for="address-value">Address on that network</label>
            <input
              id="address-value"
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
      {flow}
    </section>
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
