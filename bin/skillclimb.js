#!/usr/bin/env node
// `skillclimb --version` answers before the CLI and everything it imports is loaded: for that command,
// start-up is the whole cost. Every other command goes through the CLI, whose answer to --version is the same.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else {
  const { main } = await import('../build/cli/main.js');
  process.exitCode = await main(args);
}
