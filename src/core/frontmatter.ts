/**
 * The leading YAML frontmatter: undefined when the file does not open with `---`; else the index of its
 * closing `---` line, or null when it is never closed. Here, not in core/iterate/markdown.ts: the reviewer's
 * instructions (core/review) read it too, and the two engines' pure logic may not import each other.
 */
export function frontmatterClose(lines: readonly string[]): number | null | undefined {
  if (lines.length === 0 || lines[0]!.replace(/^\uFEFF/, '').trimEnd() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === '---') return i;
  }
  return null;
}
