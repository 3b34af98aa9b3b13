// The bundle's entry point (dist/index.js): everything else lives in runner.ts and main.ts.
//
// The secrets are masked and the first log line goes out before the rest of the bundle is loaded (it is a
// separate chunk, imported here), so a run shows it is alive at once, however long its dependencies take.
import { maskSecretInputs } from './mask.js';

declare const SKILLCLIMB_VERSION: string | undefined;

maskSecretInputs();
const version = typeof SKILLCLIMB_VERSION === 'string' ? SKILLCLIMB_VERSION : 'development build';
process.stdout.write(`skillclimb ${version} (Node ${process.version})\n`);
const { run } = await import('./runner.js');
await run({ masked: true });
