/**
 * The files the review-loop App needs at run time, and nothing else: what the Dockerfile's runtime stage
 * holds (docs/app.md § Deploy). @vercel/nft follows every import and require from the compiled entry
 * (build/app/main.js) — static ones, `import('@ai-sdk/openai')` and the like, and the files a package
 * reads by a path it computes (Probot's `app.yml` in the working folder) — and the listed files are
 * copied into a folder laid out as the repository is: `build/` (only the App's modules), `node_modules/`
 * (only the files of the packages the App loads), `package.json` (its `"type": "module"` makes build/
 * ES modules) and `app.yml`. So the image runs the very files `npm start` runs, resolved the same way,
 * without the test and lint tools every clone installs (CONTRIBUTING.md § Packaging).
 *
 * Why a trace, not an esbuild bundle like the CLI's: two modules are loaded by a package name at run
 * time, which a bundle has no node_modules to resolve — the registration pages load Probot's own modules
 * by the path of its installed package (src/app/setup.ts; Probot exports only its index), and with
 * REDIS_URL Probot's throttling loads `ioredis` through npx-import-light, which finds it in node_modules
 * (the App imports ioredis itself, so the trace has it). Both were seen to fail from a bundle ("Cannot find
 * module 'probot'", "Cannot find package 'ioredis'"). And a bundle would run other code than `npm start`
 * does. test/app/app-image.test.ts starts the App from a folder this makes, without and with Redis.
 */
import { cp, mkdir, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { nodeFileTrace } from '@vercel/nft';

/** The packages BullMQ loads only for a backend the App does not use (Postgres, Valkey GLIDE): never installed. */
const UNUSED_OPTIONAL = new Set(['pg', '@valkey/valkey-glide']);

/** Files of the repository, beside build/ and node_modules/, that the image carries. */
const ROOT_FILES = new Set(['package.json', 'app.yml']);

function inside(parent, file) {
  const relative = path.relative(parent, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The deepest folder that holds both paths. */
function commonFolder(a, b) {
  const partsA = a.split(path.sep);
  const partsB = b.split(path.sep);
  let n = 0;
  while (n < partsA.length && n < partsB.length && partsA[n] === partsB[n]) n += 1;
  return partsA.slice(0, n).join(path.sep) || path.sep;
}

/**
 * Traces `<buildDir>/app/main.js` and copies what it needs into `outdir` (which must not exist yet or be
 * empty, and lie outside the repository, where no node_modules of the repository is reachable).
 * `buildDir` is `build/` unless a test compiled the sources elsewhere (under node_modules, so that
 * packages resolve from there as from build/). Returns the copied files, relative to `outdir`, sorted.
 */
export async function copyAppRuntime({ root, outdir, buildDir = path.join(root, 'build') }) {
  const realRoot = await realpath(root);
  const modules = await realpath(path.join(root, 'node_modules'));
  const build = await realpath(buildDir);
  const entry = path.join(build, 'app', 'main.js');
  if (!(await stat(entry).catch(() => undefined))?.isFile())
    throw new Error(`${entry} is not there: run \`npm run build\` first`);
  const out = path.resolve(outdir);
  if (out === realRoot || inside(realRoot, out))
    throw new Error(
      `${out} is inside the repository, whose node_modules would stand in for missing files: choose a folder outside it`,
    );
  if ((await readdir(out).catch(() => [])).length > 0)
    throw new Error(`${out} is not empty: give a new or empty folder`);

  // The base covers the repository and its node_modules even where node_modules is a link elsewhere
  // (a git worktree sharing one install); nft reports every file by its real path.
  const base = commonFolder(commonFolder(realRoot, modules), build);
  const { fileList, warnings } = await nodeFileTrace([entry], {
    base,
    // Probot reads app.yml and .env from the working folder, which is the repository's for `npm start`.
    processCwd: realRoot,
    // .env holds the App's secrets: never copied (the container gets them from its environment).
    ignore: (file) => path.basename(file).startsWith('.env'),
  });
  const unexpected = [...warnings]
    .map((warning) => warning.message)
    .filter((message) => {
      const missing = /^Failed to resolve dependency "([^"]+)"/.exec(message)?.[1];
      return !(missing && UNUSED_OPTIONAL.has(missing));
    });
  if (unexpected.length > 0) throw new Error(`tracing the App failed:\n${unexpected.join('\n')}`);

  const copies = [];
  for (const listed of fileList) {
    const from = path.join(base, listed);
    // A link nft passed through (node_modules itself, in a worktree): its target's files are listed too.
    if ((await stat(from)).isDirectory()) continue;
    let to;
    if (from === build || inside(build, from)) to = path.join('build', path.relative(build, from));
    else if (inside(modules, from)) to = path.join('node_modules', path.relative(modules, from));
    else if (ROOT_FILES.has(path.relative(realRoot, from))) to = path.relative(realRoot, from);
    else
      throw new Error(
        `the App reads ${from} at run time, which the image does not carry: add it to ROOT_FILES in scripts/lib/app-runtime.mjs if it belongs there`,
      );
    copies.push([from, to]);
  }
  for (const [from, to] of copies) {
    await mkdir(path.dirname(path.join(out, to)), { recursive: true });
    await cp(from, path.join(out, to), { preserveTimestamps: true });
  }
  return copies.map(([, to]) => to).sort();
}
