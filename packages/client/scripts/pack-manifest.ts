// What `npm pack` and `npm publish` put in the package (the `prepack` and `postpack` scripts): the build, the
// repository's LICENSE, and a manifest without `scripts` and `devDependencies` — a consumer's npm would otherwise
// see an install script (`prepare`) and list the workspace's tooling. npm packs the package.json on disk and
// runs `postpack` from the manifest it read before `prepack`, so the clean manifest is written for the pack and
// the original put back after it.
//   node scripts/pack-manifest.ts clean     (prepack: build first)
//   node scripts/pack-manifest.ts restore   (postpack)
// By hand, not clean-pkg-json: that rewrites package.json for good and has no way back, which a developer's
// checkout (and the packing test) needs; the rule itself is two fields.
import { copyFile, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { PACKAGE_ROOT } from "./build-options.ts";

const MANIFEST = `${PACKAGE_ROOT}package.json`;
const KEPT = `${PACKAGE_ROOT}package.json.orig`;
const LICENSE = `${PACKAGE_ROOT}LICENSE`;

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function restore(): Promise<void> {
  if (await exists(KEPT)) await rename(KEPT, MANIFEST);
  await rm(LICENSE, { force: true });
}

async function clean(): Promise<void> {
  // A pack that died half-way left the clean manifest: start from the original.
  await restore();
  const manifest = JSON.parse(await readFile(MANIFEST, "utf8")) as Record<string, unknown>;
  await copyFile(MANIFEST, KEPT);
  delete manifest.scripts;
  delete manifest.devDependencies;
  await writeFile(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  await copyFile(`${PACKAGE_ROOT}../../LICENSE`, LICENSE);
}

const command = process.argv[2];
if (command === "clean") await clean();
else if (command === "restore") await restore();
else throw new Error(`usage: node scripts/pack-manifest.ts clean|restore (got ${command})`);
