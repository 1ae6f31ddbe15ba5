// SEP-2 federation for a wallet: `alice*acme` or `alice.acme*<home domain>` to the account and memo to pay
// (docs/api.md, "SEP-2 federation and stellar.toml"). In `alice*acme` the part after the `*` is a namespace, not a
// host, so the SDK's Federation.Server.resolve (which fetches https://acme/.well-known/stellar.toml) cannot find
// the server: the wallet must be told the service's URL. `alice.acme*names.example` is standard SEP-2 and goes
// through the home domain's stellar.toml. Either way the answer can be checked against the lookup contract.
import { normaliseLabel } from "@namereg/protocol";
import { Federation, Memo } from "@stellar/stellar-sdk";
import { NameregError } from "./api.ts";
import { type ChainResolution, confirmOnChain, type ResolveVerifiedOptions } from "./resolve-verified.ts";

export interface FederationOptions {
  /** The namereg service's base URL (e.g. `https://names.example`): required for `label*namespace`. */
  readonly serviceUrl?: string;
  /** Allow plain-HTTP federation and stellar.toml URLs (local development only). */
  readonly allowHttp?: boolean;
  /** When given, the answer is checked against the lookup contract before it is returned (recommended). */
  readonly verify?: ResolveVerifiedOptions;
  /** Request timeout in ms (the SDK's default when absent). */
  readonly timeout?: number;
}

/** What to put in the payment: `destination` and `memo` go into Operation.payment and addMemo as they are. */
export interface FederationPayment {
  /** The federation address as the server names it (canonical case). */
  readonly stellarAddress: string;
  /** `label.namespace`: the name the address stands for. */
  readonly name: string;
  readonly destination: string;
  /** Memo.text(…) when the name's payment instruction carries a memo, else Memo.none(). */
  readonly memo: Memo;
  /** What the lookup contract answered, when `verify` was given. */
  readonly chain: ChainResolution | null;
}

/** The name a federation address stands for, and whether its domain is a namespace (no dot, no port). */
function parseAddress(address: string): { name: string; namespaceForm: boolean; domain: string } {
  const parts = address.split("*");
  const [local = "", domain = ""] = parts;
  if (parts.length !== 2 || local === "" || domain === "") {
    throw new NameregError(400, {
      error: "invalid_request",
      detail:
        "address: must be a federation address name*domain, such as alice*acme or alice.acme*names.example",
    });
  }
  const lower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // A namespace is a label (no dot, no port), which no host of the second form is.
  const namespace = local.includes(".") ? null : normaliseLabel(domain);
  return namespace === null
    ? { name: lower(local), namespaceForm: false, domain }
    : { name: `${lower(local)}.${namespace}`, namespaceForm: true, domain };
}

/**
 * Resolves a federation address to the account and memo to pay. `alice*acme` asks `<serviceUrl>/federation`;
 * `alice.acme*names.example` finds the federation server in names.example's stellar.toml, as any SEP-2 wallet does.
 * Throws NameregError: `not_found` (404) for an address that names nothing, `network_error` when the server cannot
 * be reached, `invalid_request` (400) for a malformed address or `label*namespace` without `serviceUrl`, and with
 * `verify` the codes of resolveVerified (`resolution_mismatch`, `chain_unavailable`).
 */
export async function resolveFederation(
  address: string,
  options: FederationOptions = {},
): Promise<FederationPayment> {
  const { name, namespaceForm, domain } = parseAddress(address);
  const opts = {
    ...(options.allowHttp === undefined ? {} : { allowHttp: options.allowHttp }),
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  };
  let record: Federation.Api.Record;
  try {
    if (namespaceForm) {
      if (options.serviceUrl === undefined) {
        throw new NameregError(400, {
          error: "invalid_request",
          detail: `${address}: "${domain}" is a namespace, not a domain; pass serviceUrl (the namereg service's URL)`,
        });
      }
      const server = new Federation.Server(
        `${options.serviceUrl.replace(/\/+$/, "")}/federation`,
        domain,
        opts,
      );
      record = await server.resolveAddress(address);
    } else {
      record = await Federation.Server.resolve(address, opts);
    }
  } catch (cause) {
    if (cause instanceof NameregError) throw cause;
    throw Object.assign(federationError(address, cause), { cause });
  }
  const memoText = record.memo_type === "text" && typeof record.memo === "string" ? record.memo : null;
  const chain =
    options.verify === undefined
      ? null
      : await confirmOnChain(name, record.account_id, memoText, options.verify);
  return {
    stellarAddress: (record as { stellar_address?: string }).stellar_address ?? address,
    name,
    destination: record.account_id,
    memo: memoOf(record),
    chain,
  };
}

function memoOf(record: Federation.Api.Record): Memo {
  const value = record.memo === undefined ? undefined : String(record.memo);
  switch (record.memo_type) {
    case "text":
      return Memo.text(value ?? "");
    case "id":
      return Memo.id(value ?? "0");
    case "hash":
      return Memo.hash(value ?? "");
    default:
      return Memo.none();
  }
}

/** The SDK's HTTP failure as the client's typed error: a 404 is the server's `not_found`. */
function federationError(address: string, cause: unknown): NameregError {
  const status = (cause as { response?: { status?: unknown } }).response?.status;
  const detail = cause instanceof Error ? cause.message : String(cause);
  if (status === 404 || /\b404\b/.test(detail)) {
    return new NameregError(404, { error: "not_found", detail: `${address}: ${detail}` });
  }
  return new NameregError(typeof status === "number" ? status : 0, {
    error: "network_error",
    detail: `${address}: ${detail}`,
  });
}
