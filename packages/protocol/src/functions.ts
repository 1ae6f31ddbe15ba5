// Contract function signatures of docs/contracts.md: argument and return layouts. The server encodes arguments and
// decodes returns with these; the devnet decodes arguments and encodes returns with the very same definitions.
// One module per contract under functions/; `fn` (functions/fn.ts) builds each definition.

export { AllocatorFns } from "./functions/allocator.ts";
export type { ArgSpec, ArgValues, FnDef } from "./functions/fn.ts";
export { LookupFns } from "./functions/lookup.ts";
export { PrimaryFns } from "./functions/primary.ts";
export { RegistrarFns } from "./functions/registrar.ts";
export { RegistryFns } from "./functions/registry.ts";
export { ResolverFns } from "./functions/resolver.ts";
export { TokenFns } from "./functions/token.ts";
