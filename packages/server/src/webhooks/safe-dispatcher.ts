// The HTTP client of the deliverer: an undici Agent whose connector refuses, at connect time, any address the
// target policy refuses (target-policy.ts). A host name is resolved by the connector's own `lookup` and every
// address it resolves to is checked before a socket is opened to one of them, so the address judged is the
// address connected to: a name that resolved to a public address at registration and to 127.0.0.1 now is
// refused now (DNS rebinding). An IP literal in the URL skips lookup in Node, so the connector checks it first.
// undici follows no redirects unless asked to; nothing here asks.
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { type Resolver, refusedAddressReason, type TargetPolicy } from "./target-policy.ts";

/** A connection the target policy refused; its message is what the owner sees on the attempt. */
export class TargetRefusedError extends Error {
  readonly code = "TARGET_REFUSED";
  constructor(detail: string) {
    super(`target refused: ${detail} (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)`);
    this.name = "TargetRefusedError";
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `net.connect`'s `lookup` over `resolve`, refusing the whole name when any address it gives is refused. */
export function guardedLookup(resolve: Resolver, guard: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = all.filter((a) => wanted === 0 || a.family === wanted);
        if (guard) {
          for (const { address } of all) {
            const reason = refusedAddressReason(address);
            if (reason !== null) {
              callback(new TargetRefusedError(`${hostname} resolves to ${reason}`), "");
              return;
            }
          }
        }
        const first = addresses[0];
        if (first === undefined) {
          const none: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          none.code = "ENOTFOUND";
          callback(none, "");
          return;
        }
        if (options.all === true)
          callback(
            null,
            addresses.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** An idle connection to a receiver is closed after this long. */
export const KEEP_ALIVE_MS = 10_000;

export interface DispatcherOptions {
  readonly policy: TargetPolicy;
  readonly resolve: Resolver;
  /** Connecting (TCP and TLS) must finish within this. */
  readonly connectTimeoutMs: number;
}

/**
 * An Agent that connects through the target check. The deliverer makes one per endpoint, holding one
 * connection (kept alive between that endpoint's deliveries): endpoints never share connections, so one that
 * hangs never keeps another's request waiting in a queue (endpoint-dispatchers.ts).
 */
export function webhookDispatcher(options: DispatcherOptions): Agent {
  const guard = !options.policy.allowPrivateTargets;
  const base = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.resolve, guard),
  } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (target, callback) => {
    const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
    if (guard && isIP(host) !== 0) {
      const reason = refusedAddressReason(host);
      if (reason !== null) {
        callback(new TargetRefusedError(reason), null);
        return;
      }
    }
    base(target, callback);
  };
  return new Agent({ connect, keepAliveTimeout: KEEP_ALIVE_MS, connections: 1 });
}
