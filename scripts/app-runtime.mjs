// Copies the files the review-loop App needs at run time — its compiled modules in build/, the files of
// the packages it loads, package.json and app.yml — into a folder outside the repository: the Dockerfile's
// runtime stage (scripts/lib/app-runtime.mjs says how and why). Run after `npm run build`:
//   npm run build && npm run app:runtime -- /tmp/review-loop
//   cd /tmp/review-loop && node build/app/main.js    (with the App's environment: see docs/app.md)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyAppRuntime } from './lib/app-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const [outdir] = process.argv.slice(2);
if (!outdir) {
  console.error('usage: npm run app:runtime -- <new folder outside the repository>');
  process.exit(2);
}
try {
  const files = await copyAppRuntime({ root, outdir });
  const packages = new Set(
    files.flatMap((file) => /^node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? []),
  );
  console.log(`${path.resolve(outdir)}: ${files.length} files, ${packages.size} packages`);
} catch (error) {
  console.error(`app:runtime: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
