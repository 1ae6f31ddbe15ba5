// The namespace owner's console changes (subname and chain policy): prepare with the session, verify, sign,
// POST /console/tx/submit.
import { RegistrarFns, ResolverFns, subnamePolicyFromHttp } from "@namereg/protocol";
import { type NameregApi, NameregError, unwrap } from "./api.ts";
import {
  type AskedCall,
  asInvalidRequest,
  type Body,
  type SignWith,
  type Submitted,
  verifyAndSign,
} from "./transactions.ts";

/** A console session: the bearer token from POST /auth and the namespace it acts for. */
export interface ConsoleSession {
  readonly token: string;
  readonly namespace: string;
}

export const consoleHeaders = (session: ConsoleSession) => ({
  authorization: `Bearer ${session.token}`,
  "x-service-namespace": session.namespace,
});

export type ConsolePrepare = "/console/subname-policy/prepare" | "/console/chain-policy/prepare";

/** A console change (subname or chain policy): prepare as the namespace owner, sign, POST /console/tx/submit. */
export async function consoleChange<P extends ConsolePrepare>(
  api: NameregApi,
  path: P,
  body: Body<P>,
  session: ConsoleSession,
  sign: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  const asked = consoleCall(path, body);
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared = await unwrap(
    api.POST(path as "/console/subname-policy/prepare", { body: body as never, headers }),
  );
  const kind = path === "/console/subname-policy/prepare" ? "registrarId" : "resolverId";
  const xdr = await verifyAndSign(prepared, asked, kind, sign);
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}

/**
 * The contract call of a console change, encoded from the body the caller sent: what the signature must cover (for
 * a wallet that shows the transaction before signing, as holderCall is for the holder's changes).
 */
export function consoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  return asInvalidRequest(() => encodeConsoleCall(path, body));
}

function encodeConsoleCall<P extends ConsolePrepare>(path: P, body: Body<P>): AskedCall {
  if (path === "/console/subname-policy/prepare") {
    const { policy } = body as Body<"/console/subname-policy/prepare">;
    // The body speaks HTTP's spelling (`creation-disabled`), the contract its symbol (`creation_disabled`).
    const onChain = subnamePolicyFromHttp(policy);
    if (onChain === null) {
      throw new NameregError(400, { error: "invalid_request", detail: `policy: ${policy} is not a policy` });
    }
    return {
      function: RegistrarFns.set_subname_policy.name,
      args: RegistrarFns.set_subname_policy.encodeArgs({ policy: onChain }),
    };
  }
  const { networks } = body as Body<"/console/chain-policy/prepare">;
  return {
    function: ResolverFns.set_chain_policy.name,
    args: ResolverFns.set_chain_policy.encodeArgs({ networks: [...networks] }),
  };
}
