// The parts of a name's page (name.tsx): the answer first — what the name resolves to, who gets paid, who holds it
// and until when — then a list of its sections (Overview · Records · Subnames · History · Manage) linked by anchor,
// and the read-only records table anyone reads.
import type { JSX } from "preact";
import type { Records } from "../actions/holder-records.tsx";
import type { Explained } from "../errors.ts";
import { recordLink } from "../format.ts";
import { AccountLink, type Loaded, Table, UserLink, UserText, When } from "../ui.tsx";
import { nameFlags } from "../words.ts";

/** The name's answer at a glance: where payments to it go, who holds it, until when. */
export function Glance(props: {
  readonly name: string;
  readonly holder: string | null;
  readonly expiresAt: string | null | undefined;
  readonly records: Loaded<Records>;
}): JSX.Element {
  const { name, records } = props;
  const flags = records.state === "ok" ? nameFlags({ ...records.value, name }) : null;
  return (
    <div class="glance" data-glance>
      <p>
        <strong>Payments to {name} go to: </strong>
        {records.state === "loading" ? (
          "…"
        ) : records.state === "error" ? (
          <GlanceRefusal error={records.error} />
        ) : records.value.address === null ? (
          "no account yet: nothing resolves."
        ) : (
          <AccountLink address={records.value.address} />
        )}
      </p>
      {flags === null || records.state !== "ok" || records.value.address === null ? null : (
        <p class="hint">
          {flags.display}
          {flags.display === flags.primary ? null : ` ${flags.primary}`}
        </p>
      )}
      {props.holder === null ? null : (
        <p>
          <strong>Held by: </strong>
          <AccountLink address={props.holder} />
          {props.expiresAt === undefined ? null : props.expiresAt === null ? (
            ", with no expiry."
          ) : (
            <When at={props.expiresAt} relative prefix=", until " suffix="." />
          )}
        </p>
      )}
    </div>
  );
}

const GlanceRefusal = ({ error }: { readonly error: Explained }) => (
  <span>{error.code === "no_resolver" ? "nowhere: this namespace keeps no records." : error.sentence}</span>
);

/** The page's sections, by anchor: the reader sees what there is and jumps to it. */
export function SectionNav(props: {
  readonly sections: readonly (readonly [id: string, title: string])[];
}): JSX.Element {
  return (
    <nav class="section-nav" aria-label="Sections of this page">
      <ul>
        {props.sections.map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`}>{title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The name's records as anyone reads them: its pay-to address and its text records (web addresses as links). */
export function RecordsTable({ records }: { readonly records: Records }): JSX.Element {
  return (
    <Table
      caption="Records"
      captionHidden
      headings={["Key", "Value"]}
      rows={[
        ["address", records.address === null ? "—" : <AccountLink address={records.address} key="a" />],
        ...Object.entries(records.text).map(([k, v]) => {
          const link = recordLink(k, v);
          return [k, link === null ? <UserText text={v} key="v" /> : <UserLink value={v} key="v" />];
        }),
      ]}
    />
  );
}
