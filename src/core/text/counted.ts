/** A count with its noun in the right number: `1 round`, `2 rounds`, `1 weakness`, `3 weaknesses`. */
export function counted(count: number, singular: string, plural = defaultPlural(singular)): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

function defaultPlural(word: string): string {
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}
