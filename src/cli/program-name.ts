/**
 * How a printed command starts (docs/cli.md § Printed commands): the words that run this CLI again when a
 * command it prints is pasted into the shell it was started from. Decided once at start-up (createProcessIo)
 * from the running bin's path (`process.argv[1]`), the environment and a look-up of `skillclimb` on PATH:
 *
 * - started by `npx skillclimb` / `npm exec` (npm sets `npm_command=exec`, and the bin it runs is inside a
 *   `node_modules` folder), or through a local install's `node_modules/.bin/skillclimb` from its project
 *   (an npm script): `npx skillclimb`, which runs the same install from the same folder — the one a printed
 *   `--project` is relative to;
 * - the `skillclimb` found on PATH is the file that is running (both resolved through symlinks): `skillclimb`;
 * - otherwise (`node /clone/bin/skillclimb.js`, as `npm run demo` starts it): `node <absolute path>`, which
 *   works from any folder.
 *
 * A `node bin/skillclimb.js` that only inherits `npm_command=exec` from an outer `npx` (a test run under
 * `npx vitest`) is not npx's: its bin is not inside a `node_modules` folder.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { shellWord } from '../core/iterate/skill-layout.js';

/** The command name package.json's `bin` gives the CLI. */
const BIN_NAME = 'skillclimb';

/** How programName looks at the file system; tests may replace the PATH look-up. */
export interface ProgramNameLookups {
  /** Where `name` on PATH leads, resolved through symlinks; undefined when PATH has none. */
  onPath: (name: string, env: NodeJS.ProcessEnv) => string | undefined;
  /** A path resolved through symlinks; undefined when it cannot be (the file is gone). */
  realpath: (file: string) => string | undefined;
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** The first executable file `name` in the PATH folders, resolved through symlinks (what a shell would run). */
function findOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    return realpathOrUndefined(candidate);
  }
  return undefined;
}

function isWithin(dir: string, root: string): boolean {
  const rel = path.relative(root, path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * `npx skillclimb`, `skillclimb` or `node '<absolute bin>'` (see the module comment): `script` is the
 * running bin as node was given it (`process.argv[1]`), relative to `cwd`.
 */
export function programName(
  script: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
  lookups: ProgramNameLookups = { onPath: findOnPath, realpath: realpathOrUndefined },
): string {
  if (script === undefined || script === '') return BIN_NAME;
  const file = path.resolve(cwd, script);
  const folders = file.split(/[\\/]+/);
  const inNodeModules = folders.includes('node_modules');
  // A local install's bin link: npx finds it from the folder that holds that node_modules, or one below it.
  const binLink =
    folders.at(-2) === '.bin' &&
    folders.at(-3) === 'node_modules' &&
    isWithin(cwd, path.resolve(file, '../../..'));
  if ((env.npm_command === 'exec' && inNodeModules) || binLink) return `npx ${BIN_NAME}`;
  const running = lookups.realpath(file);
  const found = lookups.onPath(BIN_NAME, env);
  if (running !== undefined && found === running) return BIN_NAME;
  return `node ${shellWord(file)}`;
}
