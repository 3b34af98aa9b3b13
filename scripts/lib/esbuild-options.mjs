/**
 * The esbuild settings both bundles share: the Action's dist/ (scripts/bundle.mjs) and the package's CLI
 * (scripts/bundle-cli.mjs). One ESM file per entry with every dependency inlined, for Node 20, deterministic
 * (no timestamps, no minification), so the same sources give the same bytes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Bundled CommonJS dependencies call require() for Node built-ins; an ES module has no require.
const banner = [
  "import { createRequire as __skillclimbCreateRequire } from 'node:module';",
  'const require = __skillclimbCreateRequire(import.meta.url);',
].join('\n');

/** The version in package.json, which both bundles print. */
export async function packageVersion() {
  const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  return version;
}

/** esbuild options for `entryPoints` bundled into `outdir` (relative to the repository), split into chunks. */
export function bundleOptions({ entryPoints, outdir, entryNames, define = {} }) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    // An entry stays small and loads the rest as chunks (dynamic imports become chunks of their own), so
    // a command does not parse megabytes of dependencies before it says anything.
    splitting: true,
    entryNames,
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
    define,
    logLevel: 'warning',
    metafile: true,
  };
}

/** One line saying what a build wrote, from its metafile. */
export function summary(label, metafile) {
  const bytes = Object.values(metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  return `${label}: ${(bytes / 1024).toFixed(0)} KiB in ${Object.keys(metafile.outputs).length} files from ${Object.keys(metafile.inputs).length} modules`;
}
