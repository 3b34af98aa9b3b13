/**
 * The App's credentials, read and checked before the server starts (docs/app.md § Environment): a
 * private key that does not parse stops the start with the variable's name and how to fix it, instead of
 * a server that answers `/ping` and fails every delivery. So does a missing WEBHOOK_SECRET: without it
 * Probot verifies deliveries against its public default `development`, so anyone could sign one.
 * PRIVATE_KEY is read in every form it is found in: with real line breaks, with `\n` escapes, base64, and
 * wrapped in the quotes Probot writes into `.env` (`PRIVATE_KEY="-----BEGIN…\n…"`), which
 * `docker run --env-file` keeps; or from the file PRIVATE_KEY_PATH names. The key's value is never
 * repeated in a message.
 */
import { messageOf } from '../core/errors.js';
import { createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { EnvConfigError } from './config.js';

export interface AppCredentials {
  appId: number;
  /** The key as PEM text with real line breaks, as Probot and Node read it. */
  privateKey: string;
  /** WEBHOOK_SECRET as set: every delivery's signature is checked against it. */
  webhookSecret: string;
}

/** Probot's default webhook secret when none is set: public, so a delivery signed with it proves nothing. */
const PROBOT_DEFAULT_SECRET = 'development';

const SECRET_FIX =
  "set it to the App's webhook secret, the same value as on GitHub (the App's settings → General → " +
  'Webhook secret; the registration flow wrote it into .env). For a new one, enter the output of ' +
  '"openssl rand -hex 32" in both places';

const HOW_TO_FIX =
  'set it to the contents of the .pem file GitHub gave the App — as Probot writes it into .env ' +
  '(PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\n…"), with real or \\n-escaped line breaks, or as ' +
  'base64 of the file — or set PRIVATE_KEY_PATH to the path of the .pem file instead';

/** The value without one pair of quotes around all of it (`docker run --env-file` keeps them). */
function unquoted(value: string): string {
  const text = value.trim();
  const quote = text[0];
  return text.length >= 2 && (quote === '"' || quote === "'") && text.endsWith(quote)
    ? text.slice(1, -1).trim()
    : text;
}

/** A PEM whose line breaks were lost (one line): its body wrapped again at 64 characters. */
function rewrapped(text: string): string {
  const match = /^(-----BEGIN [A-Z ]+-----)\s*([A-Za-z0-9+/=\s]+?)\s*(-----END [A-Z ]+-----)$/.exec(text);
  if (!match) return text;
  const body = (match[2] ?? '').replace(/\s+/g, '');
  return [match[1], ...(body.match(/.{1,64}/g) ?? []), match[3]].join('\n');
}

/** The key in PEM form from any of the forms it is given in, or the text as it is when none fits. */
export function normalisePrivateKey(raw: string): string {
  let text = unquoted(raw);
  if (!text.includes('-----BEGIN') && /^[A-Za-z0-9+/=\s]+$/.test(text)) {
    const decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (decoded.includes('-----BEGIN')) text = unquoted(decoded);
  }
  text = text
    .replace(/\\r\\n|\\n/g, '\n')
    .replace(/\r\n/g, '\n')
    .trim();
  if (!text.includes('\n')) text = rewrapped(text);
  return `${text}\n`;
}

function checked(variable: string, pem: string): string {
  try {
    createPrivateKey(pem);
  } catch (error) {
    const why = messageOf(error);
    throw new EnvConfigError(
      variable,
      `does not hold a private key that can be read (${why}); ${HOW_TO_FIX}`,
    );
  }
  return pem;
}

/**
 * The credentials of `env`, checked; undefined when no key is set (Probot's registration pages run).
 * Errors name the variable (PRIVATE_KEY, PRIVATE_KEY_PATH, APP_ID, WEBHOOK_SECRET) and the fix.
 */
export function readCredentials(env: NodeJS.ProcessEnv, cwd = process.cwd()): AppCredentials | undefined {
  let privateKey: string | undefined;
  if (env.PRIVATE_KEY?.trim()) {
    privateKey = checked('PRIVATE_KEY', normalisePrivateKey(env.PRIVATE_KEY));
  } else if (env.PRIVATE_KEY_PATH?.trim()) {
    const file = path.resolve(cwd, env.PRIVATE_KEY_PATH.trim());
    if (!existsSync(file)) {
      throw new EnvConfigError(
        'PRIVATE_KEY_PATH',
        `no file at ${JSON.stringify(env.PRIVATE_KEY_PATH)}; set it to the path of the App's .pem file (in a container, a path inside it, e.g. a mounted secret)`,
      );
    }
    privateKey = checked('PRIVATE_KEY_PATH', normalisePrivateKey(readFileSync(file, 'utf8')));
  }
  if (privateKey === undefined) return undefined;
  const raw = unquoted(env.APP_ID ?? '');
  const appId = Number(raw);
  if (!/^\d+$/.test(raw) || appId <= 0) {
    throw new EnvConfigError(
      'APP_ID',
      raw === ''
        ? "is not set; set it to the App's id (the App's settings page, About → App ID)"
        : `expected the App's numeric id, got ${JSON.stringify(raw)}`,
    );
  }
  return { appId, privateKey, webhookSecret: webhookSecretOf(env) };
}

/**
 * WEBHOOK_SECRET, required whenever the App runs (production or not): Probot would fall back to its
 * public default `development`, and a delivery signed with that one is accepted as GitHub's.
 */
function webhookSecretOf(env: NodeJS.ProcessEnv): string {
  const secret = env.WEBHOOK_SECRET ?? '';
  if (secret.trim() === '') {
    throw new EnvConfigError(
      'WEBHOOK_SECRET',
      `is not set, so no delivery could be verified (Probot would accept any delivery signed with its public default "${PROBOT_DEFAULT_SECRET}"); ${SECRET_FIX}`,
    );
  }
  if (secret.trim() === PROBOT_DEFAULT_SECRET) {
    throw new EnvConfigError(
      'WEBHOOK_SECRET',
      `is Probot's public default "${PROBOT_DEFAULT_SECRET}", which anyone can sign a delivery with; ${SECRET_FIX}`,
    );
  }
  return secret;
}

/**
 * `.env` in `cwd` applied to `env` as Probot's `run` applies it (node:util parseEnv, values over the
 * environment's): done first, so the credentials it holds are checked before the server starts.
 */
export function applyDotEnv(env: NodeJS.ProcessEnv, cwd = process.cwd()): void {
  const file = path.join(cwd, '.env');
  if (existsSync(file)) Object.assign(env, parseEnv(readFileSync(file, 'utf8')));
}
