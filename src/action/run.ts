// The bundle's entry point (dist/index.js): everything else lives in runner.ts and main.ts.
import { run } from './runner.js';

await run();
