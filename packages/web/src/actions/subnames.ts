// Subname actions of a name's holder (docs/api.md "Subnames, network addresses and holder transactions"): create or
// remove `child.label.namespace` through POST /subnames/prepare, signed by the parent's holder, submitted to POST
// /records/submit. The generations the contract checks (docs/contracts.md "Registrar") are read live from the
// subname route just before preparing. Loaded when the action runs (see action.ts).
import { holderCall, splitName } from "@namereg/client";
import { RegistrarFns } from "@namereg/protocol";
import { api, unwrap } from "../api.ts";
import type { Action, PreparedAction } from "./action.ts";

/** The child's generations as the chain has them now. */
async function generations(name: string) {
  const { namespace, label, child = "" } = splitName(name);
  const answer = await unwrap(
    api.GET("/v1/subnames/{namespace}/{label}/{child}", { params: { path: { namespace, label, child } } }),
  );
  return { namespace, parentGeneration: answer.parentContext.generation, record: answer.record };
}

function generationWords(parent: string, parentGeneration: bigint, generation: bigint | null): string {
  const child =
    generation === null ? "a first creation of this subname" : `the subname's generation ${generation}`;
  return `Parent ${parent} at generation ${parentGeneration}; ${child}.`;
}

/** Create `child.label.namespace` paying to `address` (a G… or C… account). */
export function createSubname(name: string, address: string): Action {
  return {
    title: `Create subname ${name}`,
    async prepare(): Promise<PreparedAction> {
      const { namespace, parentGeneration, record } = await generations(name);
      const body = {
        name,
        action: "create" as const,
        parentGeneration,
        // A removed child is created again at its current generation; one never stored passes none.
        generation: record === null ? null : record.generation,
        address,
      };
      const asked = holderCall("/subnames/prepare", body);
      const prepared = await unwrap(api.POST("/subnames/prepare", { body }));
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registrarId,
        contractWords: `the registrar of namespace ${namespace}`,
        asked,
        submit: { route: "holder" },
        describe: (args) => {
          const call = RegistrarFns.create_subname.decodeArgs(args);
          const parent = `${call.label}.${namespace}`;
          return [
            `Create subname ${call.child}.${parent} pointing to ${call.address}.`,
            generationWords(parent, call.parentGeneration, call.generation),
          ];
        },
      };
    },
  };
}

/** Remove `child.label.namespace`: it stops resolving; its holder may create it again later. */
export function removeSubname(name: string): Action {
  return {
    title: `Remove subname ${name}`,
    async prepare(): Promise<PreparedAction> {
      const { namespace, parentGeneration, record } = await generations(name);
      const body = {
        name,
        action: "remove" as const,
        parentGeneration,
        generation: record?.generation ?? null,
      };
      const asked = holderCall("/subnames/prepare", body);
      const prepared = await unwrap(api.POST("/subnames/prepare", { body }));
      return {
        xdr: prepared.xdr,
        network: prepared.network,
        contractId: prepared.registrarId,
        contractWords: `the registrar of namespace ${namespace}`,
        asked,
        submit: { route: "holder" },
        describe: (args) => {
          const call = RegistrarFns.remove_subname.decodeArgs(args);
          const parent = `${call.label}.${namespace}`;
          return [
            `Remove subname ${call.child}.${parent}: it stops resolving.`,
            generationWords(parent, call.parentGeneration, call.generation),
          ];
        },
      };
    },
  };
}
