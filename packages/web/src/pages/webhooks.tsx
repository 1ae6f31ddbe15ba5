// A namespace owner's hosted webhooks (docs/api.md "Wallet sessions and the owner console", docs/webhooks.md):
// the endpoints with their state, registering one (its signing secret is shown once, here, never again), rotating a
// secret, deleting an endpoint, and each endpoint's delivery log with a retry. Every call carries the wallet session
// and X-Service-Namespace; the service answers another account 403 not_namespace_owner, said in words.
//
// Use: the route `/namespace/<namespace>/webhooks` (routes.ts).
import { CHANGE_TYPES } from "@namereg/client";
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { href } from "../routes.ts";
import { Details, ErrorNote, Mono, Page, Section, useLoad } from "../ui.tsx";
import { demoWalletOffered } from "../wallet/demo.ts";
import { consoleHeaders, type Session, useSession } from "../wallet/session.ts";
import { changeType } from "../words.ts";
import { capitalized, Deliveries, when } from "./webhook-deliveries.tsx";

interface Secret {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly rotated: boolean;
}

/** The one-time secret: a copy button and a note that it is not shown again. */
function SecretNote({ shown, onClose }: { readonly shown: Secret; readonly onClose: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => box.current?.focus(), [shown]);
  return (
    <div class="manage secret" role="status" tabIndex={-1} ref={box} aria-labelledby="secret-title">
      <h2 id="secret-title">
        {shown.rotated ? "New signing secret" : "Signing secret"} of {shown.url}
      </h2>
      <p>
        <strong>Store it now:</strong> it is shown only this once. Your receiver verifies each delivery with
        it: any Standard Webhooks library does, or <code>verifyWebhook</code> of <code>@namereg/client</code>.
        {shown.rotated ? " The previous secret also signs for 24 hours, while you switch." : ""}
      </p>
      <p>
        <code class="mono" data-testid="webhook-secret">
          {shown.secret}
        </code>
      </p>
      <p class="row">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard
              .writeText(shown.secret)
              .then(() => setCopied("Copied."))
              .catch(() => setCopied("Copying was refused: select the secret and copy it by hand."))
          }
        >
          Copy secret
        </button>{" "}
        <button type="button" onClick={onClose}>
          I stored it
        </button>
      </p>
      {copied === null ? null : <p aria-live="polite">{copied}</p>}
    </div>
  );
}

function Register(props: {
  readonly session: Session;
  readonly namespace: string;
  readonly onCreated: (secret: Secret) => void;
}): JSX.Element {
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Explained | null>(null);
  return (
    <form
      class="manage"
      aria-labelledby="register-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(null);
        try {
          const made = await unwrap(
            api.POST("/console/webhooks", {
              body: { url: url.trim(), types: CHANGE_TYPES.filter((t) => types.includes(t)) },
              headers: consoleHeaders(props.session, props.namespace),
            }),
          );
          setUrl("");
          setTypes([]);
          props.onCreated({ id: made.id, url: made.url, secret: made.secret, rotated: false });
        } catch (e) {
          setError(explain(e));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h2 id="register-title">Register an endpoint</h2>
      <div class="field">
        <label for="webhook-url">Endpoint URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          autocomplete="off"
          spellcheck={false}
          placeholder="https://hooks.example.com/namereg"
          aria-describedby="webhook-url-hint"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <p class="hint" id="webhook-url-hint">
          {demoWalletOffered()
            ? "Your receiver's address. This is namereg dev: it also accepts http:// and addresses on this machine (127.0.0.1, localhost), so a receiver running beside it works. A production service accepts only public https:// addresses."
            : "Your receiver's public https:// address. The service refuses addresses inside its own network (this machine, private ranges) and, unless its operator allows it, plain http:// addresses."}
        </p>
      </div>
      <fieldset>
        <legend>Change types to send (at least one)</legend>
        {CHANGE_TYPES.map((t) => (
          <label class="choice" key={t}>
            <input
              type="checkbox"
              name="types"
              value={t}
              checked={types.includes(t)}
              onChange={(e) =>
                setTypes(e.currentTarget.checked ? [...types, t] : types.filter((other) => other !== t))
              }
            />{" "}
            {capitalized(changeType(t))}
          </label>
        ))}
      </fieldset>
      <p class="row">
        <button type="submit" disabled={busy || types.length === 0}>
          Register endpoint
        </button>
      </p>
      {error === null ? null : <ErrorNote error={error} />}
    </form>
  );
}

/** Asks before deleting; the focus moves to the question's answer, so Enter confirms and Tab reaches "Keep it". */
function ConfirmDelete(props: {
  readonly url: string;
  readonly onDelete: () => void;
  readonly onKeep: () => void;
}): JSX.Element {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  return (
    <fieldset>
      <legend>Delete {props.url}?</legend>
      <p>This deletes the endpoint and its delivery log; nothing more is sent to it.</p>
      <p class="row">
        <button type="button" ref={yes} onClick={props.onDelete}>
          Yes, delete {props.url}
        </button>{" "}
        <button type="button" onClick={props.onKeep}>
          Keep it
        </button>
      </p>
    </fieldset>
  );
}

function Endpoints(props: { readonly session: Session; readonly namespace: string }): JSX.Element {
  const { session, namespace } = props;
  const headers = consoleHeaders(session, namespace);
  const [read, setRead] = useState(0);
  const [shown, setShown] = useState<Secret | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [error, setError] = useState<Explained | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const loaded = useLoad(`wh:${namespace}:${session.token}:${read}`, () =>
    unwrap(api.GET("/console/webhooks", { headers })),
  );
  const act = async (work: () => Promise<void>) => {
    setError(null);
    setSaid(null);
    try {
      await work();
    } catch (e) {
      setError(explain(e));
    }
  };
  return (
    <>
      {shown === null ? null : <SecretNote shown={shown} onClose={() => setShown(null)} />}
      {error === null ? null : <ErrorNote error={error} />}
      {said === null ? null : <p role="status">{said}</p>}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        <Section
          loaded={loaded}
          render={(list) =>
            list.webhooks.length === 0 ? (
              <p>No endpoints yet.</p>
            ) : (
              <ul class="endpoints">
                {list.webhooks.map((w) => (
                  <li key={w.id} class="manage">
                    <h3 class="mono">{w.url}</h3>
                    <p>
                      {w.enabled
                        ? "Enabled."
                        : `Disabled since ${when(w.disabledAt)}${w.disabledReason === null ? "." : `: ${w.disabledReason}.`}`}
                      {w.failingSince === null ? null : ` Failing since ${when(w.failingSince)}.`}
                      {w.previousSecretExpiresAt === null
                        ? null
                        : ` The previous secret signs too until ${when(w.previousSecretExpiresAt)}.`}
                    </p>
                    <p class="hint">
                      Sends when {w.types.map(changeType).join("; ")}. Registered {when(w.createdAt)}.
                    </p>
                    <Details>
                      Endpoint id <Mono>{w.id}</Mono>; change types <Mono>{w.types.join(", ")}</Mono>.
                    </Details>
                    <p class="row">
                      <button
                        type="button"
                        aria-expanded={open === w.id}
                        onClick={() => setOpen(open === w.id ? null : w.id)}
                      >
                        {open === w.id ? "Hide deliveries" : "Show deliveries"}
                      </button>{" "}
                      <button
                        type="button"
                        onClick={() =>
                          act(async () => {
                            const r = await unwrap(
                              api.POST("/console/webhooks/{id}/rotate-secret", {
                                params: { path: { id: w.id } },
                                headers,
                              }),
                            );
                            setShown({ id: w.id, url: w.url, secret: r.secret, rotated: true });
                            setRead((n) => n + 1);
                          })
                        }
                      >
                        Rotate secret
                      </button>{" "}
                      {confirm === w.id ? null : (
                        <button type="button" onClick={() => setConfirm(w.id)}>
                          Delete
                        </button>
                      )}
                    </p>
                    {confirm !== w.id ? null : (
                      <ConfirmDelete
                        url={w.url}
                        onKeep={() => setConfirm(null)}
                        onDelete={() =>
                          act(async () => {
                            await unwrap(
                              api.DELETE("/console/webhooks/{id}", {
                                params: { path: { id: w.id } },
                                headers,
                              }),
                            );
                            setConfirm(null);
                            if (shown?.id === w.id) setShown(null);
                            setSaid(`Deleted ${w.url}.`);
                            setRead((n) => n + 1);
                          })
                        }
                      />
                    )}
                    {open === w.id ? (
                      <Deliveries session={session} namespace={namespace} id={w.id} url={w.url} />
                    ) : null}
                  </li>
                ))}
              </ul>
            )
          }
        />
      </section>
      <Register
        session={session}
        namespace={namespace}
        onCreated={(secret) => {
          setShown(secret);
          setRead((n) => n + 1);
        }}
      />
    </>
  );
}

export function WebhooksPage({ namespace }: { readonly namespace: string }): JSX.Element {
  const session = useSession();
  return (
    <Page title={`Webhooks of ${namespace}`}>
      <p>
        The service posts each change of namespace <a href={href.namespace(namespace)}>{namespace}</a> of the
        types you choose to your endpoints, signed with the endpoint's secret (Standard Webhooks).
      </p>
      {session === null ? (
        <p>
          The owner of namespace {namespace} manages its webhooks here after signing in with their wallet.
        </p>
      ) : (
        <Endpoints session={session} namespace={namespace} key={session.token} />
      )}
    </Page>
  );
}

/** The namespace page's link here, shown only to the namespace's owner when signed in (its operator). */
export function WebhooksLink({ namespace }: { readonly namespace: string }): JSX.Element | null {
  const session = useSession();
  const account = session?.account ?? null;
  const loaded = useLoad(`whl:${namespace}:${account}`, () =>
    account === null
      ? Promise.resolve(null)
      : unwrap(api.GET("/v1/namespaces/{namespace}", { params: { path: { namespace } } })),
  );
  if (loaded.state !== "ok" || loaded.value === null || loaded.value.operator !== account) return null;
  return (
    <p>
      <a href={href.webhooks(namespace)}>Hosted webhooks of {namespace}</a>: endpoints, secrets and
      deliveries.
    </p>
  );
}
