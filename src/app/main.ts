/** Entry of `npm start` (build/app/main.js): the App as a long-running server. */
import { startApp } from './server.js';
import { messageOf } from '../core/errors.js';

try {
  await startApp(process.env, { handleSignals: true });
} catch (error) {
  // The message names the variable or file; a stack trace would add nothing for the person starting it.
  console.error(`review-loop App did not start: ${messageOf(error)}`);
  process.exitCode = 1;
}
