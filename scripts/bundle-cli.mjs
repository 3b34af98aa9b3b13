// Bundles the CLI (src/cli/main.ts) into bundle/cli/main.js for the npm package: every dependency inlined,
// so the package users install declares no dependencies (CONTRIBUTING.md § Packaging). Run by `prepare`,
// which npm runs for `npm pack`, `npm publish` and an install from git. bundle/ is not committed.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { bundleOptions, root, summary } from './lib/esbuild-options.mjs';

const outdir = path.join(root, 'bundle');

await rm(outdir, { recursive: true, force: true });
const result = await build(
  bundleOptions({
    entryPoints: ['src/cli/main.ts'],
    outdir: 'bundle',
    // bundle/cli/main.js and bundle/chunks/: every file two folders below the package's root, as
    // build/cli/main.js is, so the CLI finds package.json (its --version) at the same relative path.
    entryNames: 'cli/[name]',
  }),
);
console.log(summary('bundle/', result.metafile));
