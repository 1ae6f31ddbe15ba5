// A namespace owner's policies (docs/api.md "Wallet sessions and the owner console"): the subname policy on the
// registrar and the network allowlist on the resolver, prepared through the console with the session and
// X-Service-Namespace, signed by the owner, submitted to POST /console/tx/submit. Loaded when the action runs (see
// action.ts).
import { consoleCall } from "@namereg/client";
import { RegistrarFns, ResolverFns, subnamePolicyToHttp } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import type { Action, PreparedAction } from "./action.ts";
import { POLICY_WORDS } from "./words.ts";

/** Sets the subname policy of `namespace`: `enabled`, `creation-disabled` or `suspended`. */
export function setSubnamePolicy(namespace: string, policy: string): Action {
  return {
    title: `Set the subname policy of ${namespace} to ${policy}`,
    async prepare(_wallet, session: Session): Promise<PreparedAction> {
      const body = { namespace, policy };
      const asked = consoleCall("/console/subname-policy/prepare", body);
      const prepared = await unwrap(
        api.POST("/console/subname-policy/prepare", { body, headers: consoleHeaders(session, namespace) }),
      );
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registrarId,
        contractWords: `the registrar of namespace ${namespace}`,
        asked,
        submit: { route: "console", namespace },
        describe: (args) => {
          const set = subnamePolicyToHttp(RegistrarFns.set_subname_policy.decodeArgs(args).policy);
          return [`Set the subname policy of namespace ${namespace} to ${set}: ${POLICY_WORDS[set] ?? set}.`];
        },
      };
    },
  };
}

/** Sets the networks whose addresses names of `namespace` may carry (the whole list; empty disables all). */
export function setChainPolicy(namespace: string, networks: readonly string[]): Action {
  return {
    title: `Set the networks of ${namespace}`,
    async prepare(_wallet, session: Session): Promise<PreparedAction> {
      const body = { namespace, networks: [...networks] };
      const asked = consoleCall("/console/chain-policy/prepare", body);
      const prepared = await unwrap(
        api.POST("/console/chain-policy/prepare", { body, headers: consoleHeaders(session, namespace) }),
      );
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.resolverId,
        contractWords: `the resolver of namespace ${namespace}`,
        asked,
        submit: { route: "console", namespace },
        describe: (args) => {
          const allowed = ResolverFns.set_chain_policy.decodeArgs(args).networks;
          return allowed.length === 0
            ? [`Allow no network addresses in namespace ${namespace}: every one stops resolving.`]
            : [
                `Allow network addresses on ${allowed.join(", ")} in namespace ${namespace}.`,
                "Addresses on any other network stop resolving.",
              ];
        },
      };
    },
  };
}
