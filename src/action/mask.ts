/**
 * The Action's very first output: the runner's `add-mask` command for every secret it was handed, before
 * anything else is printed (docs/how-it-works.md § Untrusted text and secrets). Written here without
 * @actions/core, which takes a while to load, so that the masks and the first log line go out at once.
 * The providers' inputs and variables come from their rows in src/core/providers.ts.
 */
import { BASE_URL_VARIABLES, KEY_VARIABLES, PROVIDER_INPUTS } from '../core/providers.js';

/** Masked before anything else runs: the token and every provider's key input. */
export const SECRET_INPUTS: readonly string[] = [
  'github-token',
  ...PROVIDER_INPUTS.filter((p) => p.kind === 'key').map((p) => p.input),
];

/** Endpoint inputs masked when they carry credentials (`https://user:pass@host`). */
const URL_INPUTS = PROVIDER_INPUTS.filter((p) => p.kind === 'base URL').map((p) => p.input);

/** An input as @actions/core's getInput reads it: `INPUT_<NAME>` (spaces as `_`, upper case), trimmed. */
function inputValue(name: string, env: NodeJS.ProcessEnv): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** What @actions/core's setSecret prints: `::add-mask::<value>` with `%`, CR and LF escaped. */
export function addMaskCommand(secret: string): string {
  const value = secret.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return `::add-mask::${value}\n`;
}

/**
 * The secret inputs (read from the process's environment, as the runner sets them) and what a workflow
 * may hand over through `env:` instead: the provider keys, and base URLs with credentials.
 */
function secretsToMask(env: NodeJS.ProcessEnv): string[] {
  const secrets: string[] = [];
  for (const name of SECRET_INPUTS) {
    const value = inputValue(name, process.env);
    if (value) secrets.push(value);
  }
  // An endpoint with userinfo (`https://user:key@proxy`) carries a credential in its URL.
  for (const name of URL_INPUTS) {
    const value = inputValue(name, process.env);
    if (value.includes('@')) secrets.push(value);
  }
  for (const name of KEY_VARIABLES) {
    const value = env[name]?.trim();
    if (value) secrets.push(value);
  }
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name]?.trim();
    if (value?.includes('@')) secrets.push(value);
  }
  return secrets;
}

export function maskSecretInputs(
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): void {
  for (const secret of secretsToMask(env)) write(addMaskCommand(secret));
}
