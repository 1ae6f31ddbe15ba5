// One hosted webhook endpoint's delivery log on the webhooks page (webhooks.tsx; docs/webhooks.md): each delivery's
// change, state and attempts, newest first (followed by itself: polled while shown), with a retry that sends it
// again now.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { dateTime } from "../format.ts";
import { type Polling, refresh } from "../live/query.ts";
import { Details, ErrorNote, Mono, Section, Table, UserText, useLoad } from "../ui.tsx";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import { attemptError, changeType, deliveryState } from "../words.ts";

/** A time inside a sentence: the reader's locale, as `<When>` writes it in tables (format.ts). */
export function when(iso: string | null | undefined): string {
  return iso === null || iso === undefined ? "—" : dateTime(iso);
}

/** Words that start a line or a label: "A text record changed". */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The log follows the deliverer by itself (attempts, retries, a delivery delivered) — none of which is a change on
 * the chain the stream would announce — so it is polled while shown, as the status page is: every 5 s (a retry
 * waits at least seconds, docs/webhooks.md), one console read each, while the tab is visible.
 */
const POLLING: Polling = { everyMs: 5_000, gapMs: 2_000 };

export function Deliveries(props: {
  readonly session: Session;
  readonly namespace: string;
  readonly id: string;
  readonly url: string;
}): JSX.Element {
  const [error, setError] = useState<Explained | null>(null);
  const headers = consoleHeaders(props.session, props.namespace);
  const key = `del:${props.id}`;
  const loaded = useLoad(
    key,
    () =>
      unwrap(
        api.GET("/console/webhooks/{id}/deliveries", {
          params: { path: { id: props.id }, query: { limit: 20 } },
          headers,
        }),
      ),
    POLLING,
  );
  const retry = async (deliveryId: string) => {
    setError(null);
    try {
      await unwrap(
        api.POST("/console/webhooks/{id}/deliveries/{deliveryId}/retry", {
          params: { path: { id: props.id, deliveryId } },
          headers,
        }),
      );
      // The log, and a disabled endpoint's line above ("Disabled since …": a retry enables it again), read again.
      refresh((k) => k === key || k.startsWith(`wh:${props.namespace}:`));
    } catch (e) {
      setError(explain(e));
    }
  };
  return (
    <section aria-label={`Deliveries to ${props.url}`}>
      {error === null ? null : <ErrorNote error={error} />}
      <Section
        loaded={loaded}
        render={(log) => (
          <Table
            caption={`Deliveries to ${props.url}, newest first`}
            headings={["Change", "State", "Attempts", ""]}
            empty="No deliveries yet: one is made for each change of a chosen type."
            rows={log.deliveries.map((d) => [
              <>
                {capitalized(changeType(d.type))}
                {/* The change's position in the stream and the delivery's id: machine values, for a report. */}
                <Details>
                  Change <Mono>{d.position}</Mono>; delivery <Mono>{d.id}</Mono>
                </Details>
              </>,
              <>
                {capitalized(deliveryState(d.state))}
                {d.reason === null ? null : (
                  <span class="hint">
                    {" "}
                    (<UserText text={d.reason} />)
                  </span>
                )}
                {d.nextAttemptAt === null ? null : (
                  <span class="hint"> next attempt {when(d.nextAttemptAt)}</span>
                )}
              </>,
              d.attempts.length === 0 ? (
                "none yet"
              ) : (
                <ol>
                  {d.attempts.map((a) => {
                    // The error in words where it is a known one, the raw text then under Details.
                    const said = a.error === null ? null : attemptError(a.error);
                    return (
                      <li key={a.attemptedAt}>
                        {when(a.attemptedAt)}: {a.statusCode === null ? "no answer" : `HTTP ${a.statusCode}`}
                        {a.durationMs === null ? "" : ` in ${a.durationMs} ms`}
                        {a.error === null ? "" : `; ${said ?? a.error}`}
                        {said === null ? null : <Details>{a.error}</Details>}
                        {a.responseExcerpt === null || a.responseExcerpt === "" ? null : (
                          <span class="hint mono"> “{a.responseExcerpt}”</span>
                        )}
                      </li>
                    );
                  })}
                </ol>
              ),
              // Any delivery may be sent again now (docs/webhooks.md): a failed one, one waiting for its next
              // attempt, a delivered one the receiver lost; on a disabled endpoint this enables it again.
              // Named by its change and when it was made, so each row's button says which delivery it sends.
              <button
                type="button"
                key="retry"
                aria-label={`${d.state === "delivered" ? "Send again" : "Retry now"}: ${changeType(d.type)}, ${when(d.createdAt)}`}
                onClick={() => void retry(d.id)}
              >
                {d.state === "delivered" ? "Send again" : "Retry now"}
              </button>,
            ])}
          />
        )}
      />
    </section>
  );
}
