// Who is signed in: the account, the wallet it signs with and the console session token (SEP-10, docs/sessions.md).
// Kept in memory and in sessionStorage (this tab only, gone when it closes), never a secret key: after a reload
// the wallet is reconnected by its id (a browser wallet) or role (the Demo wallet) when it is next needed.
//
// Use: `useSession()` in a component (re-renders on sign-in and sign-out); `await walletOf(session)` for the
// signer an action needs; `consoleHeaders(session, namespace)` for an owner's console call; `signOut()`.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.ts";
import type { WalletPick } from "./connect.ts";
import { type ConnectedWallet, type WalletChoice, walletName } from "./wallet.ts";

export interface Session {
  readonly account: string;
  /** The bearer token of POST /auth (24 h). */
  readonly token: string;
  readonly choice: WalletChoice;
  /** The network the wallet signs for. */
  readonly networkPassphrase: string;
}

const KEY = "namereg.session";
let current: Session | null = restore();
let wallet: { readonly session: Session; readonly wallet: Promise<ConnectedWallet> } | null = null;
const listeners = new Set<(session: Session | null) => void>();

function restore(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed = raw === null ? null : (JSON.parse(raw) as Partial<Session>);
    return typeof parsed?.account === "string" &&
      typeof parsed.token === "string" &&
      typeof parsed.networkPassphrase === "string" &&
      typeof parsed.choice === "object"
      ? (parsed as Session)
      : null;
  } catch {
    return null;
  }
}

function set(session: Session | null, connected?: ConnectedWallet): void {
  current = session;
  wallet =
    session === null || connected === undefined ? null : { session, wallet: Promise.resolve(connected) };
  try {
    if (session === null) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // Storage refused (private mode): the session lives in memory for this page.
  }
  for (const listener of listeners) listener(session);
}

export const currentSession = (): Session | null => current;

export function useSession(): Session | null {
  const [session, setSession] = useState(current);
  useEffect(() => {
    listeners.add(setSession);
    setSession(current);
    return () => void listeners.delete(setSession);
  }, []);
  return session;
}

/** Connects the picked wallet and signs in with it (SEP-10): the wallet signs the service's challenge. */
export async function signInWith(pick: WalletPick): Promise<Session> {
  const connect = await import("./connect.ts");
  const connected = await connect.connect(pick);
  const token = await connect.signInWith(connected);
  const session: Session = {
    account: connected.account,
    token,
    choice: connected.choice,
    networkPassphrase: connected.networkPassphrase,
  };
  set(session, connected);
  return session;
}

/** The signer of the signed-in wallet (reconnected after a reload). */
export function walletOf(session: Session): Promise<ConnectedWallet> {
  if (wallet?.session !== session) {
    const connected = import("./connect.ts").then((c) =>
      c.reconnect(session.choice, session.account, session.networkPassphrase),
    );
    wallet = { session, wallet: connected };
    connected.catch(() => {
      if (wallet?.wallet === connected) wallet = null;
    });
  }
  return wallet.wallet;
}

/** Ends the session at the service (POST /auth/logout) and in the page, whatever the service answers. */
export async function signOut(): Promise<void> {
  const session = current;
  set(null);
  if (session !== null)
    await api
      .POST("/auth/logout", { headers: { authorization: `Bearer ${session.token}` } })
      .catch(() => undefined);
}

/** Forgets a session the service no longer knows (401 unauthorized): the person signs in again. */
export function forgetSession(session: Session): void {
  if (current === session) set(null);
}

/** The headers of an owner's console call for `namespace` (docs/api.md "Wallet sessions and the owner console"). */
export function consoleHeaders(session: Session, namespace: string): Record<string, string> {
  return { authorization: `Bearer ${session.token}`, "x-service-namespace": namespace };
}

export const sessionWalletName = (session: Session): string => walletName(session.choice);
