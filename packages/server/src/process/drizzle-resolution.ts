// Node re-reads a package's package.json while resolving each module inside it (24.21 and 24.22 alike: the
// `exports` map is parsed again for every one), and drizzle-orm's is 179 KB with ~450 exports: resolving its ~100
// modules cost every `namereg` process ~0.5 s of CPU at start (1.6 s → 1.1 s for the index, serve and escrow
// commands' imports, measured with `process.cpuUsage`). No library changes how Node resolves, so this hook does
// it for the one case that costs: a relative `.js` import from a module of drizzle-orm is the file next to it, an
// ES module (the package is `"type": "module"`). Every other import takes Node's own path.
import { type ResolveFnOutput, type ResolveHookContext, registerHooks } from "node:module";

const DRIZZLE = new URL(".", import.meta.resolve("drizzle-orm")).href;

type NextResolve = (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput;

/** The resolve hook: exported for its test; `resolveDrizzleDirectly` registers it. */
export function resolveDrizzle(
  specifier: string,
  context: ResolveHookContext,
  next: NextResolve,
): ResolveFnOutput {
  const parent = context.parentURL;
  if (
    parent?.startsWith(DRIZZLE) === true &&
    (specifier.startsWith("./") || specifier.startsWith("../")) &&
    specifier.endsWith(".js")
  ) {
    const url = new URL(specifier, parent).href;
    if (url.startsWith(DRIZZLE)) return { url, format: "module", shortCircuit: true };
  }
  return next(specifier, context);
}

/** Registers the hook for this process's later imports (the process entry calls it before importing the rest). */
export function resolveDrizzleDirectly(): void {
  registerHooks({ resolve: resolveDrizzle });
}
