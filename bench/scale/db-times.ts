// What each route's queries cost inside PostgreSQL: the `Execution Time` of EXPLAIN ANALYZE of the very statements
// the route runs (built by the route's own query builders), the median over several parameter values. On a shared
// machine the HTTP figures include waiting for a core; these do not (PostgreSQL measures its own execution), so
// their growth from 1M to 10M is the growth of the queries themselves.
import type { Db } from "@namereg/server";
import { eventsPage } from "../../packages/server/src/api/routes/archive/queries.ts";
import { directoryRoster, heldInDirectory } from "../../packages/server/src/api/routes/directory/queries.ts";
import {
  LOOKUP_LIMIT,
  namePrefixQuery,
  nameSubstringQuery,
  nameSubstringWalk,
  SUBSTRING_WALK_SCAN,
} from "../../packages/server/src/api/routes/discovery/lookup.ts";
import { namesHeldBy } from "../../packages/server/src/api/routes/resolution/queries.ts";
import { manyQuery } from "../../packages/server/src/api/routes/resolution/resolve-fill.ts";
import { percentiles } from "./measure.ts";

type Query = { toSQL(): { sql: string; params: unknown[] } };
type Statement = { sql: string; params: unknown[] };

export interface DbTimeInputs {
  readonly nodes: readonly string[];
  readonly prefixTerms: readonly string[];
  readonly commonTerms: readonly string[];
  readonly rareTerms: readonly string[];
  readonly bigHolder: string;
  readonly smallHolder: string;
  /** Event ids: 99% into the archive, 50 before its end. */
  readonly deep: string;
  readonly last: string;
  readonly nowSeconds: number;
}

/** Median milliseconds of server-side execution per route (a route running two statements counts both). */
export async function databaseTimes(
  db: Db,
  run: (sql: string, params: unknown[]) => Promise<number>,
  inputs: DbTimeInputs,
  repeat = 20,
): Promise<Record<string, number>> {
  const now = BigInt(inputs.nowSeconds);
  const lookup = { inNamespace: null, nowSeconds: now, limit: LOOKUP_LIMIT };
  const all = { filtered: false } as const;
  const st = (q: Query): Statement => q.toSQL();
  const resolveSql = (manyQuery(db) as unknown as { getQuery(): { sql: string } }).getQuery().sql;
  const routes: Record<string, (i: number) => Statement[]> = {
    "resolve cold (the miss's read)": (i) => [
      { sql: resolveSql, params: [[inputs.nodes[i % inputs.nodes.length]]] },
    ],
    "lookup prefix (4 letters)": (i) => [st(namePrefixQuery(db, at(inputs.prefixTerms, i), lookup))],
    // The statements lookup runs (api/routes/discovery/lookup.ts): a common term's page from the bounded
    // trigram walk; a rare term's walk falls short of a page, then the GIN plan sorts its few matches.
    "lookup common substring (3)": (i) => [
      st(namePrefixQuery(db, at(inputs.commonTerms, i), lookup)),
      st(nameSubstringWalk(db, at(inputs.commonTerms, i), { ...lookup, scan: SUBSTRING_WALK_SCAN })),
    ],
    "lookup rare substring": (i) => [
      st(namePrefixQuery(db, at(inputs.rareTerms, i), lookup)),
      st(nameSubstringWalk(db, at(inputs.rareTerms, i), { ...lookup, scan: SUBSTRING_WALK_SCAN })),
      st(nameSubstringQuery(db, at(inputs.rareTerms, i), lookup)),
    ],
    "directory namespaces": () => [st(directoryRoster(db, all, 200))],
    "directory reverse, big holder": () => [st(heldInDirectory(db, all, inputs.bigHolder, now, 20))],
    "directory reverse, small holder": () => [st(heldInDirectory(db, all, inputs.smallHolder, now, 20))],
    "by-holder, big holder": () => [st(namesHeldBy(db, inputs.bigHolder, inputs.nowSeconds, 101))],
    "by-holder, small holder": () => [st(namesHeldBy(db, inputs.smallHolder, inputs.nowSeconds, 101))],
    "events first page (100)": () => [st(eventsPage(db, {}, undefined, 101))],
    "events page at 99% (100)": () => [st(eventsPage(db, {}, inputs.deep, 101))],
    "events last page (50)": () => [st(eventsPage(db, {}, inputs.last, 101))],
    "events of bigco at 99% (100)": () => [st(eventsPage(db, { namespace: "bigco" }, inputs.deep, 101))],
  };
  const out: Record<string, number> = {};
  for (const [name, statements] of Object.entries(routes)) {
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      let sum = 0;
      for (const s of statements(i)) sum += await run(s.sql, s.params);
      times.push(sum);
    }
    out[name] = percentiles(times).p50;
  }
  return out;
}

function at(list: readonly string[], i: number): string {
  return list[i % list.length] as string;
}
