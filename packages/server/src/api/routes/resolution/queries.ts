// The mirror reads of the resolution routes (resolution.ts), one per question a handler asks; the handlers keep
// the answers' rules (what is not found, what is expired). Every read goes to the replica the caller passes.
import { and, desc, eq, gt, inArray, isNull, lt, or, type SQL } from "drizzle-orm";
import {
  nameHistory,
  nameStats,
  names,
  namespaceProfiles,
  namespaces,
  primaryNames,
  resolverRecords,
  subnames,
} from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** Active (issued, not reclaimed), unexpired names of `holder`. */
function heldBy(holder: string, nowSeconds: number): SQL | undefined {
  return and(
    eq(names.holder, holder),
    eq(names.active, true),
    or(isNull(names.expiresAt), gt(names.expiresAt, BigInt(nowSeconds))),
  );
}

/** Up to `limit` names `holder` holds now, newest issued first. */
export function namesHeldBy(mirror: Db, holder: string, nowSeconds: number, limit: number) {
  return mirror
    .select({
      namespace: names.namespace,
      label: names.label,
      issuedAt: names.issuedAt,
      issuedLedger: names.issuedLedger,
    })
    .from(names)
    .where(heldBy(holder, nowSeconds))
    .orderBy(desc(names.issuedLedger), desc(names.node))
    .limit(limit);
}

/** What the full name record is made of: the namespace (with its profile), the name row and its stored count. */
export async function nameRecordParts(mirror: Db, namespace: string, node: string) {
  const [nsRows, nameRows, statRows] = await Promise.all([
    mirror
      .select({
        owner: namespaces.owner,
        locked: namespaces.locked,
        displayName: namespaceProfiles.displayName,
      })
      .from(namespaces)
      .leftJoin(namespaceProfiles, eq(namespaceProfiles.label, namespaces.label))
      .where(eq(namespaces.label, namespace))
      .limit(1),
    mirror.select().from(names).where(eq(names.node, node)).limit(1),
    mirror.select({ resolutions: nameStats.resolutions }).from(nameStats).where(eq(nameStats.node, node)),
  ]);
  return { namespace: nsRows[0], name: nameRows[0], resolutions: statRows[0]?.resolutions };
}

/** The name's row, whatever its state. */
export async function nameRow(mirror: Db, node: string) {
  const [row] = await mirror.select().from(names).where(eq(names.node, node)).limit(1);
  return row;
}

/**
 * Up to `limit` of the name's history events before the event `before` (an event id; from the newest when
 * undefined), newest first in chain order.
 */
export function historyEvents(mirror: Db, node: string, before: string | undefined, limit: number) {
  const where: SQL[] = [eq(nameHistory.node, node)];
  if (before !== undefined) where.push(lt(nameHistory.eventId, before));
  return mirror
    .select()
    .from(nameHistory)
    .where(and(...where))
    .orderBy(desc(nameHistory.eventId))
    .limit(limit);
}

/** What a live records read needs from the mirror: the namespace's contracts, the name's state, its text keys. */
export async function recordsParts(mirror: Db, namespace: string, node: string) {
  const [nsRows, nameRows, recordRows] = await Promise.all([
    mirror
      .select({ resolver: namespaces.resolver, registrar: namespaces.registrar })
      .from(namespaces)
      .where(eq(namespaces.label, namespace))
      .limit(1),
    mirror
      .select({ active: names.active, expiresAt: names.expiresAt })
      .from(names)
      .where(eq(names.node, node))
      .limit(1),
    mirror
      .select({ textKeys: resolverRecords.textKeys })
      .from(resolverRecords)
      .where(eq(resolverRecords.node, node)),
  ]);
  return { namespace: nsRows[0], name: nameRows[0], textKeys: recordRows[0]?.textKeys };
}

/** The primary name `address` set, if any (it may no longer hold it). */
export async function primaryNameOf(mirror: Db, address: string): Promise<string | undefined> {
  const [primary] = await mirror
    .select({ name: primaryNames.name })
    .from(primaryNames)
    .where(eq(primaryNames.address, address));
  return primary?.name;
}

/** Whether `address` holds the name `node` now. */
export async function holdsNow(
  mirror: Db,
  address: string,
  node: string,
  nowSeconds: number,
): Promise<boolean> {
  const [held] = await mirror
    .select({ node: names.node })
    .from(names)
    .where(and(eq(names.node, node), heldBy(address, nowSeconds)));
  return held !== undefined;
}

/** What a subname's resolve answer is made of (resolve-names.ts), for the subnames `nodes`. */
export function subnameRows(mirror: Db, nodes: readonly string[]) {
  return mirror
    .select({
      node: subnames.node,
      exists: subnames.exists,
      address: subnames.address,
      ledger: subnames.ledger,
      parentActive: names.active,
      parentExpiresAt: names.expiresAt,
      parentIssuedLedger: names.issuedLedger,
      policy: namespaces.subnamePolicy,
    })
    .from(subnames)
    .innerJoin(names, eq(names.node, subnames.parentNode))
    .innerJoin(namespaces, eq(namespaces.label, subnames.namespace))
    .where(inArray(subnames.node, [...nodes]));
}

export type SubnameRow = Awaited<ReturnType<typeof subnameRows>>[number];

/** The primary names the `addresses` set (they may no longer hold them). */
export function primaryNamesOf(mirror: Db, addresses: readonly string[]) {
  return mirror
    .select({ address: primaryNames.address, name: primaryNames.name })
    .from(primaryNames)
    .where(inArray(primaryNames.address, [...addresses]));
}

/** Of the names `nodes`, those active and unexpired now, with their holders. */
export function heldNames(mirror: Db, nodes: readonly string[], nowSeconds: number) {
  return mirror
    .select({ node: names.node, holder: names.holder })
    .from(names)
    .where(
      and(
        inArray(names.node, [...nodes]),
        eq(names.active, true),
        or(isNull(names.expiresAt), gt(names.expiresAt, BigInt(nowSeconds))),
      ),
    );
}

/** Each of `holders`' newest active, unexpired name (the order of namesHeldBy), one row per holder holding any. */
export function newestNamesOf(mirror: Db, holders: readonly string[], nowSeconds: number) {
  return mirror
    .selectDistinctOn([names.holder], {
      holder: names.holder,
      namespace: names.namespace,
      label: names.label,
    })
    .from(names)
    .where(
      and(
        inArray(names.holder, [...holders]),
        eq(names.active, true),
        or(isNull(names.expiresAt), gt(names.expiresAt, BigInt(nowSeconds))),
      ),
    )
    .orderBy(names.holder, desc(names.issuedLedger), desc(names.node));
}
