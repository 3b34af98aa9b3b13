/**
 * Model families, derived from a model id by rules (docs/how-it-works.md § Models and providers): the review gate needs to know
 * whether two models come from different vendors, and a gateway's id says more about that than the
 * provider that routes it (`openai-compatible:qwen3` is a Qwen model, not an OpenAI one).
 */
import { PROVIDERS } from './providers.js';

export const MODEL_FAMILIES = [
  'openai',
  'anthropic',
  'google',
  'deepseek',
  'moonshot',
  'qwen',
  'meta',
  'mistral',
  'xai',
] as const;
export type KnownModelFamily = (typeof MODEL_FAMILIES)[number];
export type ModelFamily = KnownModelFamily | 'unknown';

/**
 * Each family's words. A token matches a word when it equals it, or when it is the word followed by a
 * version that starts with a digit (`llama3`, `qwen2`, `gpt4o`, `gemma3n`). Vendor names that appear as
 * path segments in gateway ids (`openrouter/anthropic/…`, `meta-llama/…`, `mistralai/…`) count too.
 */
const FAMILY_WORDS: Record<KnownModelFamily, readonly string[]> = {
  openai: ['openai', 'gpt', 'chatgpt', 'codex', 'o1', 'o3', 'o4', 'davinci'],
  anthropic: ['anthropic', 'claude', 'sonnet', 'opus', 'haiku'],
  google: ['google', 'gemini', 'gemma', 'codegemma'],
  deepseek: ['deepseek'],
  moonshot: ['moonshot', 'moonshotai', 'kimi'],
  qwen: ['qwen', 'qwq', 'qvq'],
  meta: ['meta', 'llama', 'codellama', 'facebook'],
  mistral: ['mistral', 'mistralai', 'mixtral', 'codestral', 'devstral', 'magistral', 'ministral', 'pixtral'],
  xai: ['xai', 'grok'],
};

/**
 * Our own `provider:` prefixes (src/core/providers.ts) name the transport, not the vendor, so they never
 * count. The `satisfies` holds the table's families to the names above.
 */
const TRANSPORTS = new Set<string>(
  (PROVIDERS satisfies readonly { families: readonly KnownModelFamily[] }[]).map((p) => p.id),
);

function withoutTransport(modelId: string): string {
  const colon = modelId.indexOf(':');
  return colon > 0 && TRANSPORTS.has(modelId.slice(0, colon).toLowerCase())
    ? modelId.slice(colon + 1)
    : modelId;
}

function tokenMatches(token: string, word: string): boolean {
  if (token === word) return true;
  return token.startsWith(word) && /^[0-9]/.test(token.slice(word.length));
}

function familiesOfToken(token: string): KnownModelFamily[] {
  return MODEL_FAMILIES.filter((family) => FAMILY_WORDS[family].some((word) => tokenMatches(token, word)));
}

/**
 * The family of a model id: tokens split at non-alphanumeric boundaries, each looked up in the table.
 * Exactly one distinct family → that family; none, or a mix (`deepseek-r1-distill-llama-70b`,
 * `openrouter/openai/claude-…`) → `unknown`, because the review gate must never acquit on a guess.
 */
export function modelFamily(modelId: string): ModelFamily {
  const model = withoutTransport(modelId.trim()).toLowerCase();
  const found = new Set<KnownModelFamily>();
  for (const token of model.split(/[^a-z0-9]+/)) {
    if (token === '') continue;
    for (const family of familiesOfToken(token)) found.add(family);
  }
  if (found.size !== 1) return 'unknown';
  return [...found][0] ?? 'unknown';
}
