// One hosted webhook endpoint's delivery log on the webhooks page (webhooks.tsx; docs/webhooks.md): each delivery's
// change, state and attempts, newest first, with a retry that sends it again now.
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { api, unwrap } from "../api.ts";
import { type Explained, explain } from "../errors.ts";
import { dateTime } from "../format.ts";
import { refresh } from "../live/query.ts";
import { ErrorNote, Section, Table, UserText, useLoad } from "../ui.tsx";
import { consoleHeaders, type Session } from "../wallet/session.ts";
import { changeType, deliveryState } from "../words.ts";

/** A time inside a sentence: the reader's locale, as `<When>` writes it in tables (format.ts). */
export function when(iso: string | null | undefined): string {
  return iso === null || iso === undefined ? "—" : dateTime(iso);
}

/** Words that start a line or a label: "A text record changed". */
export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export function Deliveries(props: {
  readonly session: Session;
  readonly namespace: string;
  readonly id: string;
  readonly url: string;
}): JSX.Element {
  const [read, setRead] = useState(0);
  const [error, setError] = useState<Explained | null>(null);
  const headers = consoleHeaders(props.session, props.namespace);
  const loaded = useLoad(`del:${props.id}:${read}`, () =>
    unwrap(
      api.GET("/console/webhooks/{id}/deliveries", {
        params: { path: { id: props.id }, query: { limit: 20 } },
        headers,
      }),
    ),
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
      setRead((n) => n + 1);
      // A retry enables a disabled endpoint again: its line above ("Disabled since …") is read again too.
      refresh((key) => key.startsWith(`wh:${props.namespace}:`));
    } catch (e) {
      setError(explain(e));
    }
  };
  return (
    <section aria-label={`Deliveries to ${props.url}`}>
      <p class="row">
        <button type="button" onClick={() => setRead((n) => n + 1)}>
          Refresh deliveries
        </button>
      </p>
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
                {capitalized(changeType(d.type))} <span class="hint">(change {d.position})</span>
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
                  {d.attempts.map((a) => (
                    <li key={a.attemptedAt}>
                      {when(a.attemptedAt)}: {a.statusCode === null ? "no answer" : `HTTP ${a.statusCode}`}
                      {a.durationMs === null ? "" : ` in ${a.durationMs} ms`}
                      {a.error === null ? "" : `; ${a.error}`}
                      {a.responseExcerpt === null || a.responseExcerpt === "" ? null : (
                        <span class="hint mono"> “{a.responseExcerpt}”</span>
                      )}
                    </li>
                  ))}
                </ol>
              ),
              // Any delivery may be sent again now (docs/webhooks.md): a failed one, one waiting for its next
              // attempt, a delivered one the receiver lost; on a disabled endpoint this enables it again.
              <button type="button" key="retry" onClick={() => void retry(d.id)}>
                {d.state === "delivered" ? "Send again" : "Retry now"}: change {d.position}
              </button>,
            ])}
          />
        )}
      />
    </section>
  );
}
