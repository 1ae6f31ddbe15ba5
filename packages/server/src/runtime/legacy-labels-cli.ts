// `namereg legacy-labels check [--file F]`: what LEGACY_LABELS_FILE (or F) would do, before the indexer uses
// it. Every entry is verified by hashing; the verified ones are matched against the hash-only legacy
// allocations in the archive (dead letters of `ns` events waiting for a label). Exits 1 when an entry does not
// verify, so a deploy script can stop on a bad file.
import { namespaces } from "../db/tables.ts";
import { readLegacyLabels, waitingLegacyAllocations } from "../indexer/legacy-labels.ts";
import { openRuntime } from "../process/runtime.ts";

export const LEGACY_LABELS_USAGE = `usage: namereg legacy-labels check [--file <path>]

  check   verify every entry of LEGACY_LABELS_FILE (or --file) by hashing its label, and report which hash-only
          legacy allocations of the archive it names; the indexer replays those at its next start`;

export async function legacyLabelsCommand(args: readonly string[]): Promise<void> {
  if (args[0] !== "check") {
    console.error(LEGACY_LABELS_USAGE);
    process.exitCode = 1;
    return;
  }
  const at = args.indexOf("--file");
  const rt = await openRuntime("migrate", { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  try {
    const file = at === -1 ? rt.config.chain.legacyLabelsFile : (args[at + 1] ?? null);
    if (file === null) throw new Error("no file: set LEGACY_LABELS_FILE or pass --file <path>");
    const { labels, problems } = await readLegacyLabels(file, at === -1 ? "LEGACY_LABELS_FILE" : "--file");
    const db = rt.database.db;
    const waiting = await waitingLegacyAllocations(db);
    const waitingNodes = new Set(waiting.map((w) => w.node));
    const mirrored = new Map(
      (await db.select({ node: namespaces.node, label: namespaces.label }).from(namespaces)).map((n) => [
        n.node,
        n.label,
      ]),
    );
    console.log(`${file}: ${labels.size} verified, ${problems.length} rejected`);
    for (const p of problems) console.log(`rejected  line ${p.line}: ${p.text} — ${p.reason}`);
    for (const [node, label] of labels) {
      const state = waitingNodes.has(node)
        ? "names a hash-only allocation: the indexer projects it at its next start"
        : mirrored.get(node) === label
          ? "in the mirror"
          : "no hash-only allocation with this node in the archive (unused)";
      console.log(`verified  ${label}  ${node}  ${state}`);
    }
    const unnamed = waiting.filter((w) => w.node === null || !labels.has(w.node));
    for (const w of unnamed) {
      console.log(
        `unnamed   ${w.node ?? "?"}  ledger ${w.ledger}  event ${w.eventId}: no verified label yet`,
      );
    }
    if (waiting.length === 0) console.log("no hash-only allocation is waiting for a label");
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await rt.database.close();
  }
}
