/** The skip-list (docs/how-it-works.md § The queue): skills never iterated, embedded and operator-given. */

/** Side-effect-driven skills whose output is not text-gradable. */
export const EMBEDDED_SKIP_LIST: readonly string[] = [
  'verify',
  'run',
  'loop',
  'schedule',
  'update-config',
  'fewer-permission-prompts',
  'claude-oauth-auth',
];

export interface SkipList {
  /** Union of embedded + extension. */
  all: ReadonlySet<string>;
  sourceOf(skill: string): 'embedded' | '--skip-list extension' | undefined;
}

/** The extension can only add names: embedded entries always stay excluded (and keep "embedded" as source). */
export function mergeSkipList(extension: readonly string[]): SkipList {
  const embedded = new Set(EMBEDDED_SKIP_LIST);
  const extra = new Set(extension.map((s) => s.trim()).filter((s) => s && !embedded.has(s)));
  const all = new Set([...embedded, ...extra]);
  return {
    all,
    sourceOf: (skill) =>
      embedded.has(skill) ? 'embedded' : extra.has(skill) ? '--skip-list extension' : undefined,
  };
}
