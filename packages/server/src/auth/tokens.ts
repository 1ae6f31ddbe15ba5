// Session tokens: HS256 JWTs that name a server-side session (jti). The token proves who the session belongs to;
// the session row decides whether it is still good (revocation), so a token is never trusted on its own.
import { errors, jwtVerify, SignJWT } from "jose";
import { ApiError } from "../errors.ts";

export interface TokenClaims {
  readonly issuer: string;
  /** The wallet account, or `operator` for an operator session. */
  readonly subject: string;
  readonly sessionId: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}

const seconds = (at: Date): number => Math.floor(at.getTime() / 1000);

export async function signSessionToken(key: Uint8Array, claims: TokenClaims): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(claims.issuer)
    .setSubject(claims.subject)
    .setJti(claims.sessionId)
    .setIssuedAt(seconds(claims.issuedAt))
    .setExpirationTime(seconds(claims.expiresAt))
    .sign(key);
}

export interface VerifiedToken {
  readonly sessionId: string;
  readonly subject: string;
}

/**
 * Checks signature (HS256 only: `alg: none` and every other algorithm are refused), issuer and expiry by the
 * injected clock. Any failure is 401 `unauthorized`; only expiry gets its own detail, so a client knows to sign in
 * again rather than suspect a bug.
 */
export async function verifySessionToken(
  key: Uint8Array,
  token: string,
  expected: { readonly issuer: string; readonly now: Date },
): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: expected.issuer,
      currentDate: expected.now,
      requiredClaims: ["sub", "jti", "iat", "exp"],
    });
    if (typeof payload.jti !== "string" || typeof payload.sub !== "string")
      throw new errors.JWTInvalid("claims");
    return { sessionId: payload.jti, subject: payload.sub };
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new ApiError("unauthorized", { detail: "The session token has expired; sign in again." });
    }
    if (error instanceof errors.JOSEError) {
      throw new ApiError("unauthorized", { detail: "The session token is not valid." });
    }
    throw error;
  }
}
