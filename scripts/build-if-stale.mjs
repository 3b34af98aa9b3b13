#!/usr/bin/env node
/**
 * `npm start`'s prestart (docs/app.md § Deploy): runs `npm run build` only when build/ is behind src/ —
 * a source file newer than the file tsc made of it, a source file with none yet, or a tsconfig newer than
 * the build — so a start after `npm ci` (which builds) or after a start does not spend half a minute
 * compiling what is already compiled. Files in build/ without a source (a module since removed) do not
 * count. Run in the package's folder, as npm runs its scripts.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCE = 'src';
const BUILD = 'build';
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** The modification time in ms, or undefined when the file is not there. */
function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Every TypeScript source under `dir` that tsc emits a file for (declaration files emit none). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(c|m)?ts$/.test(entry.name) && !/\.d\.(c|m)?ts$/.test(entry.name) ? [file] : [];
  });
}

/** `src/app/main.ts` → `build/app/main.js` (`.mts` → `.mjs`, `.cts` → `.cjs`). */
function outputOf(file) {
  const relative = path.relative(SOURCE, file).replace(/\.(c|m)?ts$/, (_ts, kind = '') => `.${kind}js`);
  return path.join(BUILD, relative);
}

/** Why build/ must be built again, or undefined when it is up to date with src/. */
function staleReason() {
  // An installed package ships build/ without src/: there is nothing to build it from.
  if (mtime(SOURCE) === undefined) return undefined;
  const files = sources(SOURCE);
  let oldestOutput = Infinity;
  for (const file of files) {
    const built = mtime(outputOf(file));
    if (built === undefined) return `${outputOf(file)} is missing`;
    if ((mtime(file) ?? 0) > built) return `${file} changed since it was built`;
    oldestOutput = Math.min(oldestOutput, built);
  }
  for (const config of CONFIGS) {
    if ((mtime(config) ?? 0) > oldestOutput) return `${config} changed since the build`;
  }
  return undefined;
}

const reason = staleReason();
if (reason === undefined) {
  console.log(`build/ is up to date with src/; starting it (npm run build rebuilds it anyway)`);
} else {
  console.log(`Building first: ${reason}`);
  const built = spawnSync('npm', ['run', 'build', '--silent'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  process.exitCode = built.status ?? 1;
}
