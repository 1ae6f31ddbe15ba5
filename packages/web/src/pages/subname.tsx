// A subname's page, `child.label.namespace` (the route name.tsx hands it): its record under its parent and the
// parent's state, read from the subname routes; one refusal (no such parent or namespace) is said once.
import type { JSX } from "preact";
import { api, unwrap } from "../api.ts";
import {
  AccountLink,
  Defs,
  Details,
  ErrorNote,
  type Loaded,
  Mono,
  NameLink,
  NamespaceLink,
  Page,
  Section,
  useLoad,
  When,
} from "../ui.tsx";
import { subnamePolicy } from "../words.ts";

export function Subname(props: {
  name: string;
  child: string;
  label: string;
  namespace: string;
}): JSX.Element {
  const path = { namespace: props.namespace, label: props.label, child: props.child };
  const answer = useLoad(`sub:${props.name}`, () => loadSubname(path));
  return (
    <Page title={props.name}>
      <p class="hint">
        A subname of <NameLink name={`${props.label}.${props.namespace}`} />, in namespace{" "}
        <NamespaceLink namespace={props.namespace} />.
      </p>
      {answer.state === "error" ? (
        // One refusal (no such parent, no such namespace) is said once, not under each heading.
        <ErrorNote error={answer.error} />
      ) : (
        <SubnameSections answer={answer} child={props.child} />
      )}
    </Page>
  );
}

type SubnameAnswer = Awaited<ReturnType<typeof loadSubname>>;
const loadSubname = (path: { namespace: string; label: string; child: string }) =>
  unwrap(api.GET("/v1/subnames/{namespace}/{label}/{child}", { params: { path } }));

function SubnameSections(props: { answer: Loaded<SubnameAnswer>; child: string }): JSX.Element {
  const { answer } = props;
  return (
    <>
      <h2>Subname</h2>
      <Section
        loaded={answer}
        render={(s) =>
          s.record === null ? (
            <p>
              No subname “{props.child}” has ever been set under <NameLink name={s.parent} />.
            </p>
          ) : (
            <>
              <Defs
                items={[
                  [
                    "State",
                    s.record.active
                      ? "Active: it resolves"
                      : s.record.exists
                        ? "Inactive: set, but it does not resolve now"
                        : "Removed",
                  ],
                  ["Pays to", <AccountLink address={s.record.address} key="a" />],
                  [
                    "Controller",
                    s.record.controller === null ? (
                      "—"
                    ) : (
                      <AccountLink address={s.record.controller} key="c" />
                    ),
                  ],
                  [
                    "Expires",
                    s.record.expiresAt === null ? "never" : <When at={s.record.expiresAt} key="e" />,
                  ],
                  ["Policy", subnamePolicy(s.record.policy)],
                ]}
              />
              {/* The chain's counter for this subname (a prepare must name it): a machine value. */}
              <Details>
                <Defs items={[["Generation", <Mono key="g">{s.record.generation}</Mono>]]} />
              </Details>
            </>
          )
        }
      />
      <h2>Parent</h2>
      <Section
        loaded={answer}
        render={(s) => (
          <Defs
            items={[
              ["Name", <NameLink name={s.parentContext.name} key="p" />],
              ["Holder", <AccountLink address={s.parentContext.holder} key="h" />],
              ["Active", s.parentContext.active ? "yes" : "no"],
              [
                "Expires",
                s.parentContext.expiresAt === null ? (
                  "never"
                ) : (
                  <When at={s.parentContext.expiresAt} key="e" />
                ),
              ],
            ]}
          />
        )}
      />
    </>
  );
}
