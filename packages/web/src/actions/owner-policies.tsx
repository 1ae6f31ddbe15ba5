// A namespace page's Manage section for its owner: the subname policy (enabled, creation-disabled, suspended) and
// the networks names may carry addresses on, each behind its Edit (the form opens in place) and changed through the
// action flow with the owner's console session, then the owner's billing (owner-billing.tsx), the sale of the
// namespace (owner-sale.tsx) and the link to its hosted webhooks. Read only
// for someone signed in; the owner is read live (GET /v1/subname-policy), and another account
// reads one line saying who can.
//
// Use: `<OwnerPolicies namespace="acme" />` on the namespace page.
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { WebhooksLink } from "../pages/webhooks.tsx";
import { ErrorNote, useLoad } from "../ui.tsx";
import { useSession } from "../wallet/session.ts";
import { useActionRun } from "./action-flow.tsx";
import { EditButton } from "./fields.tsx";
import { OwnerBilling } from "./owner-billing.tsx";
import { OwnerSale } from "./owner-sale.tsx";
import { SoldReceipt } from "./seller-receipt.tsx";
import { CHAIN_NETWORKS, POLICY_WORDS } from "./words.ts";

async function policies(namespace: string) {
  const path = { path: { namespace } };
  // Whether it has a resolver, from the mirror, so a namespace without one is not asked for its networks.
  const info = await unwrap(api.GET("/v1/namespaces/{namespace}", { params: path }));
  const subnames = await unwrap(api.GET("/v1/subname-policy/{namespace}", { params: path }));
  const networks =
    info.resolverId === null
      ? null
      : (await unwrap(api.GET("/v1/chain-policy/{namespace}", { params: path }))).networks;
  return { owner: subnames.owner, policy: subnames.policy, networks };
}

/** What the section shows: the last live read, or what a change the network included set since. */
interface Policies {
  readonly owner: string;
  readonly policy: string;
  readonly networks: readonly string[] | null;
}

export function OwnerPolicies({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const [read, setRead] = useState(0);
  // Read only for someone signed in: the controls are for the owner, the live reads cost the chain a call each.
  const signedIn = session !== null;
  const loaded = useLoad(`pol:${namespace}:${signedIn}:${read}`, () =>
    signedIn ? policies(namespace) : Promise.resolve(null),
  );
  const [policy, setPolicy] = useState<string | null>(null);
  const [networks, setNetworks] = useState<readonly string[] | null>(null);
  const [open, setOpen] = useState<"policy" | "networks" | null>(null);
  // The last answer stays on screen while the next loads, and so does the flow that changed it.
  const [last, setLast] = useState<Policies | null>(null);
  // What the change under way sets: once the network included it, that is the namespace's policy, so the lines
  // below say so at once instead of the answer read before it until the live read comes back (seconds under load),
  // while the summary above, fed by the stream, already agrees with the chain.
  const sent = useRef<Partial<Pick<Policies, "policy" | "networks">>>({});
  const { start, busy, flow } = useActionRun(() => {
    const included = sent.current;
    setLast((l) => (l === null ? l : { ...l, ...included }));
    setOpen(null);
    setPolicy(null);
    setNetworks(null);
    setRead((n) => n + 1);
  });
  useEffect(() => {
    if (loaded.state === "ok") setLast(loaded.value);
  }, [loaded]);
  if (!signedIn) return null;
  if (loaded.state === "error" && last === null)
    // A namespace without subnames (or a read the chain refused) is said by the page above; nothing to change.
    return loaded.error.code === "subnames_unsupported" ? null : <ErrorNote error={loaded.error} />;
  if (last === null) return null;
  if (session?.account !== last.owner)
    return (
      <>
        {/* A seller who just sold the namespace reads what they received here. */}
        {session === null ? null : <SoldReceipt namespace={namespace} account={session.account} />}
        <p class="hint">
          The owner of namespace {namespace} can change its subname policy and networks here after signing in
          with their wallet.
        </p>
      </>
    );
  const chosenPolicy = policy ?? last.policy;
  const chosenNetworks = networks ?? last.networks ?? [];
  const toggle = (which: "policy" | "networks") => setOpen((o) => (o === which ? null : which));
  return (
    <section id="manage" class="manage" aria-labelledby="manage-title">
      <h2 id="manage-title">Manage</h2>
      {/* A read again that failed leaves the last answer below: said, not passed off as current. */}
      {loaded.state === "error" ? <ErrorNote error={loaded.error} /> : null}
      <h3>Subname policy</h3>
      <p class="row">
        <span>Now: {POLICY_WORDS[last.policy] ?? last.policy}.</span>
        <EditButton
          label="Edit the subname policy"
          controls="policy-editor"
          open={open === "policy"}
          onToggle={() => toggle("policy")}
        />
      </p>
      <div id="policy-editor">
        {open === "policy" ? (
          <form
            class="editor"
            onSubmit={(event) => {
              event.preventDefault();
              sent.current = { policy: chosenPolicy };
              start(() => import("./policies.ts").then((m) => m.setSubnamePolicy(namespace, chosenPolicy)));
            }}
          >
            <fieldset>
              <legend>Subname policy (now: {POLICY_WORDS[last.policy] ?? last.policy})</legend>
              {Object.entries(POLICY_WORDS).map(([value, words]) => (
                <label class="choice" key={value}>
                  <input
                    type="radio"
                    name="subname-policy"
                    value={value}
                    checked={chosenPolicy === value}
                    onChange={() => setPolicy(value)}
                  />{" "}
                  {words.charAt(0).toUpperCase() + words.slice(1)}
                </label>
              ))}
              <p class="row">
                <button type="submit" disabled={busy || chosenPolicy === last.policy}>
                  Change subname policy
                </button>
                {chosenPolicy === last.policy ? <span class="hint">Choose another policy first.</span> : null}
              </p>
            </fieldset>
          </form>
        ) : null}
      </div>
      {last.networks === null ? null : (
        <>
          <h3>Networks</h3>
          <p class="row">
            <span>Names may carry addresses on: {last.networks.join(", ") || "no other network"}.</span>
            <EditButton
              label="Edit the networks"
              controls="networks-editor"
              open={open === "networks"}
              onToggle={() => toggle("networks")}
            />
          </p>
          <div id="networks-editor">
            {open === "networks" ? (
              <form
                class="editor"
                onSubmit={(event) => {
                  event.preventDefault();
                  const list = CHAIN_NETWORKS.filter((n) => chosenNetworks.includes(n));
                  sent.current = { networks: list };
                  start(() => import("./policies.ts").then((m) => m.setChainPolicy(namespace, list)));
                }}
              >
                <fieldset>
                  <legend>
                    Networks names may carry addresses on (now {last.networks.join(", ") || "none"})
                  </legend>
                  {CHAIN_NETWORKS.map((n) => (
                    <label class="choice" key={n}>
                      <input
                        type="checkbox"
                        name="networks"
                        value={n}
                        checked={chosenNetworks.includes(n)}
                        onChange={(e) =>
                          setNetworks(
                            e.currentTarget.checked
                              ? [...chosenNetworks, n]
                              : chosenNetworks.filter((other) => other !== n),
                          )
                        }
                      />{" "}
                      {n}
                    </label>
                  ))}
                  <p class="row">
                    <button type="submit" disabled={busy}>
                      Change networks
                    </button>
                  </p>
                </fieldset>
              </form>
            ) : null}
          </div>
        </>
      )}
      {flow}
      <OwnerBilling namespace={namespace} />
      <OwnerSale namespace={namespace} />
      <WebhooksLink namespace={namespace} />
    </section>
  );
}
