// Loaded before anything else of the package (dist/index.js imports it first), so an unsupported Node is told so in
// one line instead of failing somewhere inside the Stellar SDK with a stack trace. Browsers have no
// `process.versions.node` and skip the check. The lines are the SDK's own floor (22.12) and the current LTS.
const SUPPORTED = "Node.js 22.12+ or 24+ (Node 20 is past its end of life)";

export function unsupportedNode(version: string | undefined): string | null {
  if (version === undefined) return null;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return null;
  return `@namereg/client needs ${SUPPORTED}; this is Node.js ${version}`;
}

const problem = unsupportedNode(
  (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node,
);
if (problem !== null) {
  const error = new Error(problem);
  // The message is the whole story: no stack to scroll past.
  error.stack = `Error: ${problem}`;
  throw error;
}
