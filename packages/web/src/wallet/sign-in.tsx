// The header's sign-in control: "Sign in" opens a dialog listing the browser wallets the kit knows (and, under
// `namereg dev` only, the Demo wallet with a choice of demo account); the chosen wallet signs the service's SEP-10
// challenge. Signed in, the header names the account (a link to its page) and offers "Sign out". The dialog is a
// native modal <dialog>: focus stays inside it, Escape closes it, and focus returns to what opened it.
//
// Use: `<SessionControls />` once, in the header; pages read the session with `useSession()` (session.ts).
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { type Explained, explain } from "../errors.ts";
import { href } from "../routes.ts";
import { ErrorNote } from "../ui.tsx";
import type { WalletPick } from "./connect.ts";
import { type DemoAccounts, demoAccounts, demoWalletOffered } from "./demo.ts";
import type { KitWallet } from "./kit.ts";
import { type Session, sessionWalletName, signInWith, signOut, useSession } from "./session.ts";

const short = (account: string) => `${account.slice(0, 4)}…${account.slice(-4)}`;

/** What a page's own sign-in button sends the header's control: open the one sign-in dialog. */
const SIGN_IN_ASKED = "namereg:sign-in";

/**
 * A page's "Sign in to buy forsale": opens the header's sign-in dialog where the person already is, so a flow that
 * needs a wallet (the market's Buy leads to the buying steps) is not a dead end pointing at the header.
 */
export function SignInButton({ label }: { readonly label: string }): JSX.Element {
  return (
    <button type="button" aria-haspopup="dialog" onClick={() => dispatchEvent(new Event(SIGN_IN_ASKED))}>
      {label}
    </button>
  );
}

export function SessionControls(): JSX.Element {
  const session = useSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const who = useRef<HTMLAnchorElement>(null);
  const [open, setOpen] = useState(false);
  const [justSignedIn, setJustSignedIn] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  useEffect(() => {
    const asked = () => setOpen(true);
    addEventListener(SIGN_IN_ASKED, asked);
    return () => removeEventListener(SIGN_IN_ASKED, asked);
  }, []);
  useEffect(() => {
    // After signing in, focus moves to who is signed in (the dialog that held it is gone).
    if (justSignedIn && session !== null) {
      who.current?.focus();
      setJustSignedIn(false);
    }
  }, [justSignedIn, session]);
  if (session !== null)
    return (
      <section class="session" aria-label="Wallet session">
        <span>
          Signed in as{" "}
          <a ref={who} class="mono" href={href.account(session.account)} title={session.account}>
            {short(session.account)}
          </a>{" "}
          <span class="hint">({sessionWalletName(session)})</span>
        </span>
        <button
          type="button"
          class="secondary"
          onClick={() => void signOut().then(() => opener.current?.focus())}
        >
          Sign out
        </button>
      </section>
    );
  return (
    <div class="session">
      <button type="button" ref={opener} onClick={() => setOpen(true)} aria-haspopup="dialog">
        Sign in
      </button>
      {open ? (
        <dialog
          ref={dialog}
          aria-labelledby="sign-in-title"
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
        >
          <SignInDialog
            onSignedIn={() => {
              // The dialog goes with the signed-out view; focus goes to who is signed in.
              setOpen(false);
              setJustSignedIn(true);
            }}
            onCancel={() => dialog.current?.close()}
          />
        </dialog>
      ) : null}
    </div>
  );
}

type Step =
  | { readonly state: "choosing" }
  | { readonly state: "waiting"; readonly wallet: string }
  | { readonly state: "failed"; readonly error: Explained };

function SignInDialog(props: {
  readonly onSignedIn: (session: Session) => void;
  readonly onCancel: () => void;
}): JSX.Element {
  const [step, setStep] = useState<Step>({ state: "choosing" });
  const status = useRef<HTMLDivElement>(null);
  const go = (pick: WalletPick, wallet: string) => {
    setStep({ state: "waiting", wallet });
    signInWith(pick).then(props.onSignedIn, (error: unknown) => {
      setStep({ state: "failed", error: explain(error) });
      status.current?.focus();
    });
  };
  const busy = step.state === "waiting";
  return (
    <div class="dialog-body">
      {/* The dialog opens on its title: the wallets below load after it opens, so without this the first
          focusable element (the status line at the end) took the focus and Tab went straight to Cancel. */}
      <h2 id="sign-in-title" tabIndex={-1} autofocus>
        Sign in with a wallet
      </h2>
      <p class="hint">
        Your wallet signs a one-time challenge that proves the account is yours (SEP-10). It cannot be
        submitted to the network, and your secret key never leaves the wallet.
      </p>
      {demoWalletOffered() ? <DemoWalletChoice busy={busy} go={go} /> : null}
      <BrowserWallets busy={busy} go={go} />
      <div ref={status} tabIndex={-1} aria-live="polite" class="status">
        {step.state === "waiting" ? <p>Waiting for {step.wallet}…</p> : null}
        {step.state === "failed" ? <ErrorNote error={step.error} /> : null}
      </div>
      <p class="row">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}

function DemoWalletChoice(props: {
  readonly busy: boolean;
  readonly go: (pick: WalletPick, wallet: string) => void;
}): JSX.Element {
  const [demo, setDemo] = useState<DemoAccounts | Explained | null>(null);
  const [role, setRole] = useState("");
  useEffect(() => {
    demoAccounts().then(
      (d) => {
        setDemo(d);
        setRole(d.accounts[0]?.role ?? "");
      },
      (e: unknown) => setDemo(explain(e)),
    );
  }, []);
  return (
    <form
      class="wallet-group"
      onSubmit={(event) => {
        event.preventDefault();
        if (role !== "") props.go({ kind: "demo", role }, `the Demo wallet (${role})`);
      }}
    >
      <fieldset>
        <legend>Demo wallet (namereg dev only)</legend>
        <p class="hint">
          Signs in the page with the demo keys <code>namereg dev</code> prints. Never offered by a real
          service.
        </p>
        {demo === null ? <p class="hint">Loading the demo accounts…</p> : null}
        {demo !== null && "code" in demo ? <ErrorNote error={demo} /> : null}
        {demo !== null && "accounts" in demo ? (
          <>
            <label for="demo-account">Act as</label>
            <select id="demo-account" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              {demo.accounts.map((a) => (
                <option value={a.role} key={a.role}>
                  {a.role} — {a.note} ({short(a.account)})
                </option>
              ))}
            </select>
            <p class="row">
              <button type="submit" disabled={props.busy}>
                Sign in with the Demo wallet
              </button>
            </p>
          </>
        ) : null}
      </fieldset>
    </form>
  );
}

function BrowserWallets(props: {
  readonly busy: boolean;
  readonly go: (pick: WalletPick, wallet: string) => void;
}): JSX.Element {
  const [wallets, setWallets] = useState<readonly KitWallet[] | Explained | null>(null);
  useEffect(() => {
    import("./kit.ts")
      .then((kit) => kit.listKitWallets())
      .then(setWallets, (e: unknown) => setWallets(explain(e)));
  }, []);
  return (
    <section class="wallet-group" aria-labelledby="browser-wallets-title">
      <h3 id="browser-wallets-title">Browser wallets</h3>
      {wallets === null ? <p class="hint">Looking for wallets in this browser…</p> : null}
      {wallets !== null && "code" in wallets ? <ErrorNote error={wallets} /> : null}
      {wallets !== null && !("code" in wallets) ? (
        <ul class="wallets">
          {[...wallets]
            .sort((a, b) => Number(b.available) - Number(a.available))
            .map((w) => (
              <li key={w.id}>
                {w.available ? (
                  <button
                    type="button"
                    disabled={props.busy}
                    onClick={() => props.go({ kind: "kit", id: w.id }, w.name)}
                  >
                    {w.name}
                  </button>
                ) : (
                  <span>
                    {w.name} <span class="hint">is not installed in this browser (</span>
                    <a href={w.url} target="_blank" rel="noopener noreferrer">
                      get {w.name}
                    </a>
                    <span class="hint">)</span>
                  </span>
                )}
              </li>
            ))}
        </ul>
      ) : null}
    </section>
  );
}
