// The namereg web page: plain ES module, no build step, no network beyond this API. Hash routes:
//   #/                status and coverage     #/name/<label.namespace>  a name
//   #/claims          the claim queue         #/market                  marketplace listings
// Everything is built with DOM nodes and textContent, never innerHTML, so chain data cannot inject markup.

/** h("p", { class: "x" }, "text", child…): an element with attributes and children. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat())
    if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

async function api(path) {
  const response = await fetch(path, { headers: { accept: "application/json" } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(body?.detail ?? `${path} answered ${response.status}`);
    error.code = body?.error;
    error.status = response.status;
    throw error;
  }
  return body;
}

const view = () => document.getElementById("view");

function show(title, ...content) {
  const target = view();
  target.replaceChildren(h("h1", { id: "page-title" }, title), ...content);
  document.title = `${title} · namereg`;
}

function failure(error) {
  return h("p", { class: "error", role: "alert" }, `Could not load: ${error.message}`);
}

function table(caption, headings, rows) {
  if (rows.length === 0) return h("p", {}, `${caption}: none.`);
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      h("caption", { class: "hint" }, caption),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          headings.map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((cells) =>
          h(
            "tr",
            {},
            cells.map((c) => h("td", {}, c)),
          ),
        ),
      ),
    ),
  );
}

function definitions(pairs) {
  return h(
    "dl",
    {},
    pairs.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v ?? "—")]),
  );
}

const state = (s) => h("span", { class: `state state-${s}` }, s);
const mono = (s) => h("span", { class: "mono" }, s ?? "—");
const nameLink = (name) => h("a", { href: `#/name/${encodeURIComponent(name)}` }, name);

async function statusPage() {
  show("Service status", h("p", {}, "Loading…"));
  try {
    const [status, coverage] = await Promise.all([api("/v1/status"), api("/v1/coverage")]);
    const all = status.components.every((c) => c.state === "operational");
    const summary = h(
      "p",
      { class: "summary", id: "status-summary" },
      all ? "All systems operational" : "Some components need attention",
      status.ledger === null ? "" : ` · ledger ${status.ledger}`,
    );
    const components = table(
      "Components",
      ["Component", "State", "Details"],
      status.components.map((c) => [
        c.name,
        state(c.state),
        Object.entries(c)
          .filter(([k, v]) => k !== "name" && k !== "state" && v !== null)
          .map(([k, v]) => `${k}: ${v}`)
          .join(", "),
      ]),
    );
    const cover = h(
      "section",
      { "aria-labelledby": "coverage-title" },
      h("h2", { id: "coverage-title" }, "Coverage"),
      definitions([
        ["Complete", coverage.complete ? "yes" : "no"],
        ["Processed ledger", String(coverage.processedLedger ?? "—")],
        ["Head ledger", String(coverage.headLedger ?? "—")],
        ["Processed at", coverage.processedAt ?? "—"],
        ["Gaps", String(coverage.gaps.length)],
      ]),
    );
    show("Service status", summary, components, cover);
  } catch (error) {
    show("Service status", failure(error));
  }
}

async function namePage(name) {
  show(name, h("p", {}, "Loading…"));
  const dot = name.indexOf(".");
  if (dot <= 0)
    return show(name, h("p", { class: "error" }, "A name reads label.namespace, e.g. alice.acme."));
  const path = `${encodeURIComponent(name.slice(0, dot))}`;
  const ns = encodeURIComponent(name.slice(dot + 1));
  const [record, records, history, subnames] = await Promise.allSettled([
    api(`/v1/names/${ns}/${path}`),
    api(`/v1/records/${ns}/${path}`),
    api(`/v1/names/${ns}/${path}/history`),
    api(`/v1/subnames/${ns}/${path}`),
  ]);
  const sections = [];
  if (record.status === "rejected") {
    sections.push(failure(record.reason));
  } else {
    const r = record.value;
    sections.push(
      h("h2", {}, "Resolution"),
      definitions([
        ["Holder", mono(r.holder)],
        ["Ownership", r.ownership],
        ["Storage", r.storage],
        ["Expires", r.expiresAt ?? "never"],
        ["Issued", `ledger ${r.issuedLedger}${r.issuedAt ? ` (${r.issuedAt})` : ""}`],
        ["Resolutions", String(r.resolutions)],
        ["Operator", r.operatorName || r.operator],
      ]),
    );
  }
  sections.push(h("h2", {}, "Records"));
  if (records.status === "rejected") sections.push(failure(records.reason));
  else {
    const rec = records.value;
    sections.push(
      table(
        "Records",
        ["Key", "Value"],
        [["address", mono(rec.address ?? "—")], ...Object.entries(rec.text).map(([k, v]) => [k, v])],
      ),
    );
  }
  sections.push(h("h2", {}, "History"));
  if (history.status === "rejected") sections.push(failure(history.reason));
  else
    sections.push(
      table(
        "History",
        ["Action", "Ledger", "Time", "Transaction"],
        history.value.events.map((e) => [e.action, String(e.ledger), e.at ?? "—", mono(e.txHash)]),
      ),
    );
  sections.push(h("h2", {}, "Subnames"));
  if (subnames.status === "rejected") sections.push(failure(subnames.reason));
  else
    sections.push(
      table(
        "Subnames",
        ["Name", "State", "Address"],
        subnames.value.subnames.map((s) => [
          s.name,
          s.active ? "active" : s.exists ? "inactive" : "removed",
          mono(s.address ?? "—"),
        ]),
      ),
    );
  show(name, ...sections);
}

async function claimsPage() {
  show("Claim queue", h("p", {}, "Loading…"));
  try {
    const q = await api("/v1/allocations");
    const rows = (list) =>
      list.map((e) => [
        e.namespace,
        mono(e.claimantAccount),
        e.state,
        String(e.announcedLedger),
        e.elapsed ? "elapsed" : `${Math.ceil(e.remainingSeconds / 3600)} h left`,
      ]);
    const headings = ["Namespace", "Claimant", "State", "Announced (ledger)", "Objection window"];
    show(
      "Claim queue",
      h("p", {}, q.ledger === null ? "" : `As of ledger ${q.ledger}.`),
      h("h2", {}, "Pending"),
      table("Pending claims", headings, rows(q.pending)),
      h("h2", {}, "Objected"),
      table("Objected claims", headings, rows(q.objected)),
      h("h2", {}, "Awarded"),
      table("Awarded claims", headings, rows(q.awarded)),
    );
  } catch (error) {
    show("Claim queue", failure(error));
  }
}

async function marketPage() {
  show("Market listings", h("p", {}, "Loading…"));
  try {
    const m = await api("/v1/market/listings");
    show(
      "Market listings",
      h("p", {}, "Escrow account: ", mono(m.escrow)),
      table(
        "Listings",
        ["Namespace", "Price (XLM)", "Fee (bps)", "Listed"],
        m.listings.map((l) => [l.namespace, l.priceXlm, String(l.feeBps), l.listedAt]),
      ),
    );
  } catch (error) {
    show(
      "Market listings",
      error.code === "market_disabled" ? h("p", {}, "The marketplace is off.") : failure(error),
    );
  }
}

function route() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  if (hash.startsWith("name/")) return namePage(hash.slice(5).toLowerCase());
  if (hash === "claims") return claimsPage();
  if (hash === "market") return marketPage();
  return statusPage();
}

// Lookup as you type: one request per pause in typing (250 ms), and a late answer never overwrites a newer one.
let lookupSeq = 0;
let lookupTimer;
async function lookup(q) {
  const seq = ++lookupSeq;
  const out = document.getElementById("lookup-results");
  if (q.trim() === "") return out.replaceChildren();
  try {
    const r = await api(`/v1/lookup?q=${encodeURIComponent(q.trim())}`);
    if (seq !== lookupSeq) return;
    const items = [
      ...r.names.map((n) => h("li", {}, nameLink(n.name))),
      ...r.namespaces.map((n) =>
        h("li", {}, `${n.label}${n.displayName ? ` — ${n.displayName}` : ""} (namespace)`),
      ),
    ];
    out.replaceChildren(
      items.length === 0
        ? h("p", {}, `Nothing found for “${q}”.`)
        : h("ul", { class: "results", "aria-label": "Lookup results" }, items),
    );
  } catch (error) {
    if (seq === lookupSeq) out.replaceChildren(failure(error));
  }
}

function start() {
  const input = document.getElementById("lookup");
  input.addEventListener("input", () => {
    clearTimeout(lookupTimer);
    lookupTimer = setTimeout(() => lookup(input.value), 250);
  });
  document.getElementById("lookup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const q = input.value.trim().toLowerCase();
    if (q.includes(".")) location.hash = `#/name/${encodeURIComponent(q)}`;
    else lookup(q);
  });
  window.addEventListener("hashchange", () => {
    route();
    document.getElementById("main").focus();
  });
  route();
}

start();
