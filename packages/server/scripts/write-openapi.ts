// `npm run openapi`: regenerates docs/openapi.json from the routes (see src/api/openapi-document.ts).
import { writeFile } from "node:fs/promises";
import { renderOpenApiDocument } from "../src/api/openapi-document.ts";

const target = new URL("../../../docs/openapi.json", import.meta.url);
await writeFile(target, await renderOpenApiDocument());
console.log(`wrote ${target.pathname}`);
