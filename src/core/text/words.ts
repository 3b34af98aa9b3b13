/** A list as a sentence says it: `a`, `a or b`, `a, b or c` (with `and` when `conjunction` says so). */
export function inWords(items: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
