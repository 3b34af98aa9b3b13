// Bundles the GitHub Action (src/action/run.ts) into dist/index.js: one ESM file, every dependency inlined,
// deterministic (no timestamps, no minification) so `.ci/run` can fail when the committed dist/ is stale.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');

// Bundled CommonJS dependencies call require() for Node built-ins; an ES module has no require.
const banner = [
  "import { createRequire as __skillclimbCreateRequire } from 'node:module';",
  'const require = __skillclimbCreateRequire(import.meta.url);',
].join('\n');

const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/action/run.ts'],
  outdir: 'dist',
  // The entry stays small: it prints the first log line, then loads the rest (src/action/run.ts), so the
  // runner does not parse megabytes of dependencies before the Action says anything.
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // The same bytes from a checkout whose node_modules is a link (a git worktree sharing one install):
  // paths in the bundle's comments stay `node_modules/...` instead of where the link points.
  preserveSymlinks: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  mainFields: ['module', 'main'],
  conditions: ['import', 'node'],
  minify: false,
  sourcemap: false,
  legalComments: 'inline',
  charset: 'utf8',
  banner: { js: banner },
  // The Action's first log line names its version (src/action/run.ts).
  define: { SKILLCLIMB_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
  metafile: true,
});
// The action runs from its own checkout, whose package.json says "type": "module"; this keeps dist/ ESM
// even when it is copied somewhere without it.
await writeFile(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(
  `dist/: ${(bytes / 1024).toFixed(0)} KiB in ${Object.keys(result.metafile.outputs).length} files from ${Object.keys(result.metafile.inputs).length} modules`,
);
