// Prepare → sign → submit, with the signing left to the caller's wallet: the service builds and simulates the
// transaction, the signer callback (a wallet, a hardware key, a Keypair in a test) signs it, the service submits it.
// Shapes come from the OpenAPI document; failures are NameregError with the spec's code.
import { type NameregApi, type paths, unwrap } from "./api.ts";

/** Signs a transaction envelope (base64 XDR) for the given network and returns the signed envelope. */
export type Signer = (xdr: string, context: { readonly networkPassphrase: string }) => Promise<string>;

export interface SignWith {
  readonly signer: Signer;
  readonly networkPassphrase: string;
}

type Body<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { "application/json": infer B } } };
}
  ? B
  : never;
/** Included (200) or still pending (202, `ok: false, pending: true`): both carry the hash to follow. */
type Submitted =
  | paths["/records/submit"]["post"]["responses"][200]["content"]["application/json"]
  | paths["/records/submit"]["post"]["responses"][202]["content"]["application/json"];

type HolderPrepare = "/records/prepare" | "/subnames/prepare";

/** A holder's change: prepare it, sign it, POST /records/submit (where both kinds of holder change go). */
async function holderChange<P extends HolderPrepare>(
  api: NameregApi,
  path: P,
  body: Body<P>,
  { signer, networkPassphrase }: SignWith,
): Promise<Submitted> {
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared = await unwrap(api.POST(path as "/records/prepare", { body: body as never }));
  const signedXdr = await signer(prepared.xdr, { networkPassphrase });
  return unwrap(api.POST("/records/submit", { body: { signedXdr } }));
}

/** Sets or removes a network address on a name (POST /records/prepare, sign, POST /records/submit). */
export function setChainAddress(
  api: NameregApi,
  body: Body<"/records/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/records/prepare", body, sign);
}

/**
 * Creates or removes a subname as the parent's holder (POST /subnames/prepare, sign, POST /records/submit). Read
 * the child first (`GET /v1/subnames/{namespace}/{label}/{child}`) for the generations the body must carry.
 */
export function changeSubname(
  api: NameregApi,
  body: Body<"/subnames/prepare">,
  sign: SignWith,
): Promise<Submitted> {
  return holderChange(api, "/subnames/prepare", body, sign);
}

/** A console session: the bearer token from POST /auth and the namespace it acts for. */
export interface ConsoleSession {
  readonly token: string;
  readonly namespace: string;
}

const consoleHeaders = (session: ConsoleSession) => ({
  authorization: `Bearer ${session.token}`,
  "x-service-namespace": session.namespace,
});

type ConsolePrepare = "/console/subname-policy/prepare" | "/console/chain-policy/prepare";

/** A console change (subname or chain policy): prepare as the namespace owner, sign, POST /console/tx/submit. */
export async function consoleChange<P extends ConsolePrepare>(
  api: NameregApi,
  path: P,
  body: Body<P>,
  session: ConsoleSession,
  { signer, networkPassphrase }: SignWith,
): Promise<Submitted> {
  const headers = consoleHeaders(session);
  // openapi-fetch types each path's body separately; the union of the two is what `body` is.
  const prepared = await unwrap(
    api.POST(path as "/console/subname-policy/prepare", { body: body as never, headers }),
  );
  const xdr = await signer(prepared.xdr, { networkPassphrase });
  return unwrap(api.POST("/console/tx/submit", { body: { xdr }, headers }));
}
