// The queries behind GET /v1/lookup. Labels are plain [a-z0-9-], so a search term is matched with no LIKE
// escaping: a term holding any other character matches nothing and never reaches the database.
//
// Index use (proved with EXPLAIN in discovery-search.integration.test.ts):
// - name prefixes are a range with the text_pattern_ops operators (`~>=~`, `~<~`) and ordered `USING ~<~`, so
//   names_label_pattern_idx serves both the range and the order even in a generic plan, and the scan stops after
//   the first few live names;
// - substrings of names walk name_trigrams first: the names holding the term's first trigram, in byte order of
//   their labels, each checked for the whole term and for being live, stopping at the page. Every name holding
//   the term holds that trigram, so the first matches among the first SUBSTRING_WALK_SCAN holders are the first
//   matches of all. For a common term the page fills long before that bound, whatever the table's size (the
//   trigram GIN index cannot stop early: it collects every name holding the term, 7,000 at 1M names and 70,000 at
//   10M for bench/scale's common term, before one is returned; bench/README.md "scale"). When the bounded walk
//   does not fill the page the term is rare among those holders: then the pg_trgm GIN index finds its matches
//   (`LIKE '%term%'`) and they are sorted, unless there are more than SUBSTRING_SORT_BUDGET, in which case the
//   walk goes on without its bound. The planner cannot choose between these: it estimates every LIKE '%term%'
//   at ~100 rows. A trigram needs three characters, so shorter terms get prefix matches only.
import { and, eq, gt, isNull, like, notLike, or, type SQL, sql } from "drizzle-orm";
import { byteOrder } from "../../../db/byte-order.ts";
import { names, namespaceProfiles, namespaces, nameTrigrams } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

export const LOOKUP_LIMIT = 8;
export const LOOKUP_MAX_QUERY = 64;
/** pg_trgm extracts no trigram from fewer characters, so a shorter substring search would scan everything. */
export const SUBSTRING_MIN = 3;
/**
 * Most substring matches the trigram GIN plan fetches and sorts; a term with more is searched by walking the
 * names holding its first trigram without a bound.
 */
export const SUBSTRING_SORT_BUDGET = 1000;
/**
 * Most names holding the term's first trigram the first walk reads: enough for a page of any term held by one in
 * 125 of them, few enough (index entries of one range) to cost a rare term little before the GIN plan.
 */
export const SUBSTRING_WALK_SCAN = 1000;

const TERM = /^[a-z0-9-]*$/;

export interface LookupPlan {
  /** Matched against namespace labels; null: no namespace can match. */
  readonly namespaceTerm: string | null;
  /** Matched against name labels; null: no name can match. */
  readonly nameTerm: string | null;
  /** Names only in this namespace (`label.namespace` queries); null: in every namespace. */
  readonly inNamespace: string | null;
}

/**
 * What a (lower-cased) query searches. `term` searches namespace and name labels; `term.ns` searches the names of
 * namespace `ns` by `term`, and namespace labels by `ns`, so typing a full name keeps offering its namespace.
 */
export function planLookup(q: string): LookupPlan {
  const parts = q.split(".");
  const usable = (part: string | undefined) => (part !== undefined && TERM.test(part) ? part : null);
  if (parts.length === 1) {
    const term = usable(parts[0]);
    return { namespaceTerm: term, nameTerm: term, inNamespace: null };
  }
  if (parts.length === 2) {
    const namespace = usable(parts[1]);
    const label = usable(parts[0]);
    return {
      namespaceTerm: namespace,
      // An empty namespace part names no namespace; an empty label part lists the namespace's names.
      nameTerm: namespace === null || namespace === "" ? null : label,
      inNamespace: namespace,
    };
  }
  // Subnames are not searched.
  return { namespaceTerm: null, nameTerm: null, inNamespace: null };
}

/** The first string after every string starting with `prefix`, in byte order (`prefix` is non-empty). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** A name that resolves: issued, not reclaimed, and not past its expiry. */
function liveName(nowSeconds: bigint): SQL | undefined {
  return and(eq(names.active, true), or(isNull(names.expiresAt), gt(names.expiresAt, nowSeconds)));
}

function nameScope(inNamespace: string | null): SQL | undefined {
  return inNamespace === null ? undefined : eq(names.namespace, inNamespace);
}

const nameColumns = { label: names.label, namespace: names.namespace };

export function namePrefixQuery(
  reader: Db,
  term: string,
  opts: { inNamespace: string | null; nowSeconds: bigint; limit: number },
) {
  const range =
    term === "" ? undefined : sql`${names.label} ~>=~ ${term} and ${names.label} ~<~ ${prefixEnd(term)}`;
  return reader
    .select(nameColumns)
    .from(names)
    .where(and(range, nameScope(opts.inNamespace), liveName(opts.nowSeconds)))
    .orderBy(byteOrder(names.label), names.namespace)
    .limit(opts.limit);
}

/** Names containing `term` but not starting with it (those are the prefix matches). */
function substringMatch(term: string, inNamespace: string | null, nowSeconds: bigint): SQL | undefined {
  return and(
    like(names.label, `%${term}%`),
    notLike(names.label, `${term}%`),
    nameScope(inNamespace),
    liveName(nowSeconds),
  );
}

/**
 * The trigram plan: at most SUBSTRING_SORT_BUDGET + 1 matches, fetched through names_label_trgm_idx, the first
 * `limit` of them in byte order, each row with the count of matches fetched. Sorted by `collate "C"`, the same
 * byte order spelt so that no index provides it: ordered `USING ~<~`, the planner may walk the whole pattern
 * index hoping to meet a few matches early, which for a rare substring reads every name.
 */
export function nameSubstringQuery(
  reader: Db,
  term: string,
  opts: { inNamespace: string | null; nowSeconds: bigint; limit: number },
) {
  const matches = reader
    .select(nameColumns)
    .from(names)
    .where(substringMatch(term, opts.inNamespace, opts.nowSeconds))
    .limit(SUBSTRING_SORT_BUDGET + 1)
    .as("matches");
  return reader
    .select({
      label: matches.label,
      namespace: matches.namespace,
      matches: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(matches)
    .orderBy(sql`${matches.label} collate "C"`, matches.namespace)
    .limit(opts.limit);
}

/**
 * The walk: the names holding the term's first trigram (name_trigrams, in byte order of their labels), the first
 * `limit` that contain the term past its start and are live; with `scan`, among the first `scan` holders only.
 * Each holder the walk passes costs one entry of name_trigrams_idx; a match costs a probe of names.
 */
export function nameSubstringWalk(
  reader: Db,
  term: string,
  opts: { inNamespace: string | null; nowSeconds: bigint; limit: number; scan: number | null },
) {
  const holdersQuery = reader
    .select({ label: nameTrigrams.label, namespace: nameTrigrams.namespace })
    .from(nameTrigrams)
    .where(
      and(
        eq(nameTrigrams.trigram, term.slice(0, SUBSTRING_MIN)),
        opts.inNamespace === null ? undefined : eq(nameTrigrams.namespace, opts.inNamespace),
      ),
    )
    .orderBy(byteOrder(nameTrigrams.label), nameTrigrams.namespace);
  const holders = (opts.scan === null ? holdersQuery : holdersQuery.limit(opts.scan)).as("holders");
  return reader
    .select({ label: holders.label, namespace: holders.namespace })
    .from(holders)
    .innerJoin(names, and(eq(names.namespace, holders.namespace), eq(names.label, holders.label)))
    .where(and(sql`strpos(${holders.label}, ${term}) > 1`, liveName(opts.nowSeconds)))
    .orderBy(sql`${holders.label} using ~<~`, holders.namespace)
    .limit(opts.limit);
}

/** Substring matches of names in byte order, by the plan the term's number of matches calls for. */
async function nameSubstrings(
  reader: Db,
  term: string,
  opts: { inNamespace: string | null; nowSeconds: bigint; limit: number },
): Promise<LookupNameRow[]> {
  const walked = await nameSubstringWalk(reader, term, { ...opts, scan: SUBSTRING_WALK_SCAN });
  if (walked.length === opts.limit) return walked;
  const sorted = await nameSubstringQuery(reader, term, opts);
  if ((sorted[0]?.matches ?? 0) <= SUBSTRING_SORT_BUDGET)
    return sorted.map(({ label, namespace }) => ({ label, namespace }));
  return nameSubstringWalk(reader, term, { ...opts, scan: null });
}

const namespaceColumns = { label: namespaces.label, displayName: namespaceProfiles.displayName };

// Namespaces are few next to names; both forms use LIKE, which namespaces_label_trgm_idx serves.
function namespaceQuery(reader: Db, where: SQL | undefined, limit: number) {
  return reader
    .select(namespaceColumns)
    .from(namespaces)
    .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
    .where(where)
    .orderBy(byteOrder(namespaces.label))
    .limit(limit);
}

export interface LookupNameRow {
  readonly label: string;
  readonly namespace: string;
}

export interface LookupNamespaceRow {
  readonly label: string;
  readonly displayName: string | null;
}

/** Prefix matches first, then substring matches, at most LOOKUP_LIMIT of each kind. */
export async function searchLookup(
  reader: Db,
  plan: LookupPlan,
  nowSeconds: bigint,
): Promise<{ namespaces: LookupNamespaceRow[]; names: LookupNameRow[] }> {
  const [foundNamespaces, foundNames] = await Promise.all([
    plan.namespaceTerm === null
      ? []
      : prefixThenSubstring(plan.namespaceTerm, {
          prefix: (term, limit) => namespaceQuery(reader, like(namespaces.label, `${term}%`), limit),
          substring: (term, limit) =>
            namespaceQuery(
              reader,
              and(like(namespaces.label, `%${term}%`), notLike(namespaces.label, `${term}%`)),
              limit,
            ),
        }),
    plan.nameTerm === null
      ? []
      : prefixThenSubstring(plan.nameTerm, {
          prefix: (term, limit) =>
            namePrefixQuery(reader, term, { inNamespace: plan.inNamespace, nowSeconds, limit }),
          substring: (term, limit) =>
            nameSubstrings(reader, term, { inNamespace: plan.inNamespace, nowSeconds, limit }),
        }),
  ]);
  return { namespaces: foundNamespaces, names: foundNames };
}

async function prefixThenSubstring<T>(
  term: string,
  queries: {
    prefix: (term: string, limit: number) => Promise<T[]>;
    substring: (term: string, limit: number) => Promise<T[]>;
  },
): Promise<T[]> {
  const prefixed = await queries.prefix(term, LOOKUP_LIMIT);
  if (prefixed.length === LOOKUP_LIMIT || term.length < SUBSTRING_MIN) return prefixed;
  return [...prefixed, ...(await queries.substring(term, LOOKUP_LIMIT - prefixed.length))];
}
