// `npm run screenshots`: the browser tests (packages/web/e2e/) have just
// written every page at 390 and 1280 px into test-artifacts/screenshots/; this copies the two the README shows into
// docs/images/, so the pictures in the README are of the page as it is, never drawn by hand.
import { copyFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SHOWN = [
  ["name-alice.acme-1280.png", "web-name-1280.png"],
  ["name-alice.acme-390.png", "web-name-390.png"],
] as const;

await mkdir(`${ROOT}docs/images`, { recursive: true });
for (const [from, to] of SHOWN) {
  await copyFile(`${ROOT}test-artifacts/screenshots/${from}`, `${ROOT}docs/images/${to}`);
  console.log(`docs/images/${to}`);
}
