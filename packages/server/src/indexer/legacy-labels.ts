// Discovery data for hash-only legacy allocations (docs/operations.md "The indexer"): an operator-supplied file of labels for
// namespaces whose legacy `ns` event carries only the node. Nothing in it is trusted: a label is used only for
// the node it hashes to, and an entry that claims a node its label does not hash to is reported, never used.
import { readFile } from "node:fs/promises";
import { isValidLabel, namespaceNode } from "@namereg/protocol";
import { and, asc, eq, isNull } from "drizzle-orm";
import { deadLetters, events } from "../db/tables.ts";
import type { Db } from "../db/types.ts";

export interface LegacyLabelProblem {
  /** 1-based line of the file. */
  line: number;
  text: string;
  reason: string;
}

export interface LegacyLabels {
  /** Verified entries: node → label. */
  labels: Map<string, string>;
  /** Entries that did not verify, with why; none of them is in `labels`. */
  problems: LegacyLabelProblem[];
}

const NODE = /^[0-9a-f]{64}$/;

/**
 * One entry per line: `<label>`, or `<node hex> <label>` when the source states the hash it read the label for
 * (then the label must hash to it). Blank lines and `#` comments are skipped.
 */
export function parseLegacyLabels(text: string): LegacyLabels {
  const labels = new Map<string, string>();
  const problems: LegacyLabelProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const verdict = verify(line);
    if (typeof verdict === "string") problems.push({ line: i + 1, text: raw.trim(), reason: verdict });
    else labels.set(verdict.node, verdict.label);
  });
  return { labels, problems };
}

/** One entry: its node and label, or why it does not verify. */
function verify(line: string): { node: string; label: string } | string {
  const parts = line.split(/\s+/);
  if (parts.length > 2) return "expected `<label>` or `<node hex> <label>`";
  const [first = "", second] = parts;
  const label = second ?? first;
  const claimed = second === undefined ? null : first.toLowerCase();
  if (claimed !== null && !NODE.test(claimed)) return "the node must be 64 hex characters";
  if (!isValidLabel(label)) return `${JSON.stringify(label)} is not a valid label`;
  const node = namespaceNode(label);
  if (claimed !== null && claimed !== node) return `${label} hashes to ${node}, not to the stated ${claimed}`;
  return { node, label };
}

export class LegacyLabelsFileError extends Error {}

/** Reads and verifies the file; an unreadable file is an error (the operator named it), bad entries are not. */
export async function readLegacyLabels(path: string, source = "LEGACY_LABELS_FILE"): Promise<LegacyLabels> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const why = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
    throw new LegacyLabelsFileError(`${source} ${path} cannot be read (${why})`);
  }
  return parseLegacyLabels(text);
}

/**
 * Hash-only legacy allocations still waiting for a label: the unresolved dead letters of `ns` events, in chain
 * order, with the node (the event's subject) each names.
 */
export function waitingLegacyAllocations(
  db: Db,
): Promise<{ node: string | null; ledger: number; eventId: string }[]> {
  return db
    .select({ node: events.subject, ledger: events.ledger, eventId: events.id })
    .from(deadLetters)
    .innerJoin(events, eq(events.id, deadLetters.eventId))
    .where(and(isNull(deadLetters.resolvedAt), eq(events.type, "ns")))
    .orderBy(asc(events.id));
}
