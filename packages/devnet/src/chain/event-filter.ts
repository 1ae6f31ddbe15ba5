// getEvents filters: OR across filters; inside a filter the type, the contract id and one of its topic
// filters must all match. Topic segments are compared as canonical base64 XDR.

export type EventType = "contract" | "system";

/** One topic filter: `null` is the `*` wildcard; `rest` is a trailing `**`. */
export interface TopicFilter {
  readonly segments: readonly (string | null)[];
  readonly rest: boolean;
}

export interface EventFilter {
  readonly types?: ReadonlySet<EventType>;
  readonly contractIds?: ReadonlySet<string>;
  readonly topics?: readonly TopicFilter[];
}

export interface FilterableEvent {
  readonly type: EventType;
  readonly contractId: string;
  readonly topics: readonly string[];
}

export function topicMatches(filter: TopicFilter, topics: readonly string[]): boolean {
  const { segments, rest } = filter;
  if (rest ? topics.length < segments.length : topics.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment !== null && segment !== topics[i]) return false;
  }
  return true;
}

export function filterMatches(filter: EventFilter, event: FilterableEvent): boolean {
  if (filter.types !== undefined && filter.types.size > 0 && !filter.types.has(event.type)) return false;
  if (
    filter.contractIds !== undefined &&
    filter.contractIds.size > 0 &&
    !filter.contractIds.has(event.contractId)
  ) {
    return false;
  }
  if (filter.topics === undefined || filter.topics.length === 0) return true;
  return filter.topics.some((t) => topicMatches(t, event.topics));
}

/** No filters match every event, as stellar-rpc does. */
export function anyFilterMatches(filters: readonly EventFilter[], event: FilterableEvent): boolean {
  return filters.length === 0 || filters.some((f) => filterMatches(f, event));
}
