// Builds the web app into dist/ (`npm run build -w @namereg/web`; `prepare`, so at `npm ci`): index.html plus
// content-hashed files under assets/, which the server caches for a year. Nothing is fetched from elsewhere at
// run time: every script, style and icon is in dist/.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The service `npm run dev` passes the API's paths to (packages/web/README.md "Developing it"). */
const SERVICE = process.env.NAMEREG_URL ?? "http://127.0.0.1:8080";
/** The service's own paths: everything but the app's pages and files. */
const SERVICE_PATHS = [
  "/v1",
  "/console",
  "/auth",
  "/records",
  "/subnames",
  "/federation",
  "/dev",
  "/docs",
  "/openapi.json",
];

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  resolve: {
    // @namereg/client from its source modules, not its dist/ bundle: the bundle is one module, which a chunk takes
    // whole, so the read pages would load the Stellar SDK that only signing needs. From the source, the SDK and the
    // signing helpers land in the chunks the wallet code loads (the type check and the tests read the source too).
    alias: { "@namereg/client": fileURLToPath(new URL("../client/src/index.ts", import.meta.url)) },
  },
  // JSX through the automatic runtime, pointed at Preact: no preset plugin needed.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // `npm run dev`: the app with hot reload, the API's paths passed to a running service (its change stream too).
  server: {
    host: "127.0.0.1",
    proxy: Object.fromEntries(SERVICE_PATHS.map((path) => [path, { target: SERVICE, changeOrigin: true }])),
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    assetsInlineLimit: 0,
    // The wallet code loads only when someone signs in: the initial chunk stays small.
    chunkSizeWarningLimit: 600,
  },
});
