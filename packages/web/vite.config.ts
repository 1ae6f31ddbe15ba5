// Builds the web app into dist/ (`npm run build -w @namereg/web`; `prepare`, so at `npm ci`): index.html plus
// content-hashed files under assets/, which the server caches for a year. Nothing is fetched from elsewhere at
// run time: every script, style and icon is in dist/.
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  // JSX through the automatic runtime, pointed at Preact: no preset plugin needed.
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
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
