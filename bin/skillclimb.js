#!/usr/bin/env node
// `skillclimb --version` answers before the CLI and everything it imports is loaded: for that command,
// start-up is the whole cost. Every other command goes through the CLI, whose answer to --version is the same.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else {
  // A clone runs what `npm run build` compiled (build/, with node_modules beside it), so a rebuilt CLI is the
  // one that runs. The package has no build/: it runs the bundle `prepare` made (bundle/, every dependency
  // inlined; CONTRIBUTING.md § Packaging).
  const { existsSync } = await import('node:fs');
  const compiled = new URL('../build/cli/main.js', import.meta.url);
  const entry = existsSync(compiled) ? compiled.href : new URL('../bundle/cli/main.js', import.meta.url).href;
  const { main } = await import(entry);
  process.exitCode = await main(args);
}
