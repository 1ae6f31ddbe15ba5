// Keys of the wallet sessions, derived from SESSION_SECRET: every replica with the same secret issues and accepts
// the same challenges and tokens, and rotating the secret invalidates both at once. Each key has its own prefix so
// knowing one (the challenge signer's public key is public) says nothing about the other.
import { createHash } from "node:crypto";
import { Keypair } from "@stellar/stellar-sdk";

export interface SessionKeys {
  /** Signs SEP-10 challenges; its public key is the challenges' source account (a stellar.toml SIGNING_KEY). */
  readonly challengeSigner: Keypair;
  /** The HS256 key of session tokens. */
  readonly tokenKey: Uint8Array;
}

function derive(purpose: string, secret: string): Buffer {
  return createHash("sha256").update(`${purpose}:${secret}`).digest();
}

export function sessionKeys(secret: string): SessionKeys {
  return {
    challengeSigner: Keypair.fromRawEd25519Seed(derive("namereg-sep10", secret)),
    tokenKey: new Uint8Array(derive("namereg-jwt", secret)),
  };
}
