/**
 * The commands a message prints, as a person would paste them: every `` `skillclimb …` `` span, split into
 * words the way a POSIX shell splits them (single quotes, double quotes, backslashes), `skillclimb` dropped.
 */
export function printedCommands(text: string): string[][] {
  return Array.from(text.matchAll(/`(skillclimb [^`]+)`/g), (m) => shellWords(m[1]!).slice(1));
}

/** The printed commands of `text` whose words start with `prefix` (e.g. `['evals', 'init']`). */
export function printedCommand(text: string, ...prefix: string[]): string[] {
  const found = printedCommands(text).find((words) => prefix.every((p, i) => words[i] === p));
  if (!found) throw new Error(`no printed \`skillclimb ${prefix.join(' ')} …\` in:\n${text}`);
  return found;
}

export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      const end = line.indexOf('"', i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
