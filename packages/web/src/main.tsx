// The namereg web app: one page, path routes (routes.ts), links followed without a reload. Chain data is rendered
// as text by Preact, never as markup.
import "./style.css";
import { type JSX, render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { LiveIndicator, useLive } from "./live/live.tsx";
import { Lookup } from "./lookup.tsx";
import { AccountPage } from "./pages/account.tsx";
import { ClaimsPage } from "./pages/claims.tsx";
import { ContractPage } from "./pages/contract.tsx";
import { ListingPage, MarketPage } from "./pages/market.tsx";
import { NamePage } from "./pages/name.tsx";
import { NamespacePage } from "./pages/namespace.tsx";
import { StatusPage } from "./pages/status.tsx";
import { TransactionPage } from "./pages/transaction.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { href, parseRoute, type Route } from "./routes.ts";
import { Page } from "./ui.tsx";
import { SessionControls } from "./wallet/sign-in.tsx";

function current(): Route {
  return parseRoute(location.pathname, location.hash);
}

function View({ route }: { readonly route: Route }): JSX.Element {
  switch (route.page) {
    case "status":
      return <StatusPage />;
    case "name":
      return <NamePage name={route.name} key={route.name} />;
    case "namespace":
      return <NamespacePage namespace={route.namespace} key={route.namespace} />;
    case "webhooks":
      return <WebhooksPage namespace={route.namespace} key={route.namespace} />;
    case "account":
      return <AccountPage address={route.address} key={route.address} />;
    case "claims":
      return <ClaimsPage />;
    case "market":
      return <MarketPage />;
    case "listing":
      return <ListingPage namespace={route.namespace} key={route.namespace} />;
    case "tx":
      return <TransactionPage hash={route.hash} key={route.hash} />;
    case "contract":
      return <ContractPage id={route.id} key={route.id} />;
    case "missing":
      // Also what the server sends, with status 404, for a page it does not know (packages/server's web.ts).
      return (
        <Page title="Page not found">
          <p>
            There is no page at {route.path}. <a href={href.status()}>Go to the home page</a>, or look a name
            up above.
          </p>
        </Page>
      );
  }
}

function App(): JSX.Element {
  const [route, setRoute] = useState<Route>(current);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useLive(route);
  const navigate = (to: string) => {
    history.pushState(null, "", to);
    setRoute(current());
  };
  useEffect(() => {
    // An old `#/name/…` address becomes its path.
    if (location.hash.startsWith("#/")) history.replaceState(null, "", location.hash.slice(1));
    const onPop = () => setRoute(current());
    // Links inside the app change the view without a reload; others (API, docs, new tab) behave as links do.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
        return;
      const a = (event.target as Element | null)?.closest("a");
      if (a === null || a === undefined || a.target !== "" || a.origin !== location.origin) return;
      const to = parseRoute(a.pathname);
      if (to.page === "missing" && a.pathname !== "/") return;
      event.preventDefault();
      // The fragment goes along: `/claims#claim-1` opens the queue at that claim.
      navigate(a.pathname + a.hash);
    };
    addEventListener("popstate", onPop);
    document.addEventListener("click", onClick);
    return () => {
      removeEventListener("popstate", onPop);
      document.removeEventListener("click", onClick);
    };
  }, []);
  useEffect(() => {
    // After a navigation, focus moves to the new page's heading (below the lookup form), so a screen reader
    // starts at the page and the next Tab reaches its first link.
    if (first.current) first.current = false;
    else (document.getElementById("page-title") ?? main.current)?.focus();
  }, [route]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">
          <a href="/">namereg</a>
        </p>
        <nav aria-label="Main">
          <ul>
            <li>
              <a href={href.status()}>Status</a>
            </li>
            <li>
              <a href={href.claims()}>Claim queue</a>
            </li>
            <li>
              <a href={href.market()}>Market</a>
            </li>
            <li>
              <a href="/docs/">API</a>
            </li>
          </ul>
        </nav>
        <LiveIndicator />
        <SessionControls />
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        <Lookup navigate={navigate} />
        <div id="view">
          <View route={route} />
        </div>
      </main>
      <footer>
        <p>
          Answers come from the namereg mirror of the chain; <a href="/v1/status">/v1/status</a> as JSON.
        </p>
      </footer>
    </>
  );
}

const root = document.getElementById("app");
if (root !== null) {
  root.replaceChildren();
  render(<App />, root);
}
