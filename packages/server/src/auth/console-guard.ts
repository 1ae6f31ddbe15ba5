// The guard of console routes (docs/api.md "Wallet sessions and the owner console"; docs/sessions.md). `authenticate` turns a Bearer token
// into a live session; `requireNamespaceOwner` then checks, in this order: a wallet session (400
// wallet_session_required), the namespace named by header, body and session agreeing (409 namespace_changed), and
// the session account being the namespace's current on-chain owner, read live (404 namespace_not_found, 409
// contract_owner_requires_adapter, 403 not_namespace_owner, 503 chain_unavailable).
//
// A session starts unscoped and is bound to the header's namespace by its first request that passes the owner
// check. Binding only after the check means a mistyped namespace cannot lock a fresh session to a namespace its
// wallet does not own; once bound, the session stays with that namespace (another one needs a new sign-in).
import {
  isContractId,
  LABEL_RULE,
  type Namespace,
  namespaceNode,
  normaliseLabel,
  RegistryFns,
} from "@namereg/protocol";
import type { FastifyRequest } from "fastify";
import type { ChainClient } from "../chain/chain-client.ts";
import { liveRead } from "../chain/live-reads.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/types.ts";
import { ApiError } from "../errors.ts";
import { sessionKeys } from "./keys.ts";
import { bindNamespace, loadLiveSession, OPERATOR_SUBJECT, type Session } from "./sessions.ts";
import { verifySessionToken } from "./tokens.ts";

export const NAMESPACE_HEADER = "x-service-namespace";

export interface ConsoleSession {
  readonly sessionId: string;
  readonly kind: Session["kind"];
  readonly account: string | null;
  readonly namespace: string | null;
}

/** A wallet session that owns `namespace` on chain right now, with the namespace's live record. */
export interface OwnerContext {
  readonly session: ConsoleSession & { readonly account: string; readonly namespace: string };
  readonly namespace: string;
  readonly record: Namespace;
}

export interface ConsoleGuardDeps {
  readonly db: Database;
  readonly config: Pick<Config, "session" | "homeDomain" | "chain">;
  readonly now: () => Date;
  readonly chainClient: ChainClient | undefined;
}

export interface ConsoleGuard {
  /** The live session named by the request's Bearer token; 401 unauthorized otherwise. */
  authenticate(request: FastifyRequest): Promise<ConsoleSession>;
  /**
   * Checks `session` (from authenticate) against the request's X-Service-Namespace header and the body's
   * namespace (undefined for a body without one, e.g. a submission), then the chain's current owner.
   */
  requireNamespaceOwner(
    request: FastifyRequest,
    session: ConsoleSession,
    bodyNamespace: string | undefined,
  ): Promise<OwnerContext>;
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;

export function createConsoleGuard(deps: ConsoleGuardDeps): ConsoleGuard {
  const { tokenKey } = sessionKeys(deps.config.session.secret);

  async function authenticate(request: FastifyRequest): Promise<ConsoleSession> {
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (token === undefined) {
      throw new ApiError("unauthorized", { detail: "Authorization: a Bearer session token is required" });
    }
    const now = deps.now();
    const verified = await verifySessionToken(tokenKey, token, { issuer: deps.config.homeDomain, now });
    const session = await loadLiveSession(deps.db, verified.sessionId, now);
    if (session === null) {
      throw new ApiError("unauthorized", {
        detail: "The session has ended (signed out or expired); sign in again.",
      });
    }
    // The token names the session and the session names the account; they must tell the same story.
    if (verified.subject !== (session.account ?? OPERATOR_SUBJECT)) {
      throw new ApiError("unauthorized", { detail: "The session token is not valid." });
    }
    return {
      sessionId: session.id,
      kind: session.kind,
      account: session.account,
      namespace: session.namespace,
    };
  }

  async function requireNamespaceOwner(
    request: FastifyRequest,
    session: ConsoleSession,
    bodyNamespace: string | undefined,
  ): Promise<OwnerContext> {
    const account = session.account;
    if (session.kind !== "wallet" || account === null) {
      throw new ApiError("wallet_session_required", {
        detail: "This needs a wallet session: sign in with the namespace owner's wallet.",
      });
    }
    const namespace = namespaceHeader(request);
    if (
      (bodyNamespace !== undefined && bodyNamespace !== namespace) ||
      (session.namespace !== null && session.namespace !== namespace)
    ) {
      throw namespaceChanged(namespace, bodyNamespace, session.namespace);
    }

    const record = await currentNamespace(namespace);
    if (isContractId(record.owner)) {
      throw new ApiError("contract_owner_requires_adapter", { namespace, owner: record.owner });
    }
    if (record.owner !== account) throw new ApiError("not_namespace_owner", { namespace });

    const bound = session.namespace ?? (await bindNamespace(deps.db, session.sessionId, namespace));
    if (bound !== namespace) throw namespaceChanged(namespace, bodyNamespace, bound);
    return { session: { ...session, account, namespace }, namespace, record };
  }

  async function currentNamespace(namespace: string): Promise<Namespace> {
    const registry = deps.config.chain.contracts.registry.id;
    if (registry === null) throw new ApiError("chain_unavailable");
    const record = await liveRead(
      deps.chainClient,
      registry,
      RegistryFns.namespace,
      { node: namespaceNode(namespace) },
      { failure: "chain_unavailable" },
    );
    if (record === null) throw new ApiError("namespace_not_found", { namespace });
    return record;
  }

  return { authenticate, requireNamespaceOwner };
}

function namespaceHeader(request: FastifyRequest): string {
  const value = request.headers[NAMESPACE_HEADER];
  if (typeof value !== "string" || value === "") {
    throw new ApiError("invalid_request", { detail: "X-Service-Namespace: is required" });
  }
  // The one rule of name segments (api/routes/path-params.ts): A-Z lower-cased, then a label.
  const namespace = normaliseLabel(value);
  if (namespace === null)
    throw new ApiError("invalid_request", { detail: `X-Service-Namespace: ${LABEL_RULE}` });
  return namespace;
}

function namespaceChanged(header: string, body: string | undefined, session: string | null): ApiError {
  return new ApiError("namespace_changed", {
    detail: "X-Service-Namespace, the body's namespace and the session's namespace must agree",
    header,
    body: body ?? null,
    session,
  });
}
