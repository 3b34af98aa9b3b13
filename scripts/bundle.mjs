// Bundles the GitHub Action (src/action/run.ts) into dist/index.js: one ESM file, every dependency inlined,
// deterministic (no timestamps, no minification) so `.ci/run` can fail when the committed dist/ is stale.
// The settings are shared with the package's CLI bundle (scripts/lib/esbuild-options.mjs).
import { build } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundleOptions, packageVersion, root, summary } from './lib/esbuild-options.mjs';

const outdir = path.join(root, 'dist');

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await build(
  bundleOptions({
    entryPoints: ['src/action/run.ts'],
    outdir: 'dist',
    // The entry stays small: it prints the first log line, then loads the rest (src/action/run.ts), so the
    // runner does not parse megabytes of dependencies before the Action says anything.
    entryNames: 'index',
    // The Action's first log line names its version (src/action/run.ts).
    define: { SKILLCLIMB_VERSION: JSON.stringify(await packageVersion()) },
  }),
);
// The action runs from its own checkout, whose package.json says "type": "module"; this keeps dist/ ESM
// even when it is copied somewhere without it.
await writeFile(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
console.log(summary('dist/', result.metafile));
