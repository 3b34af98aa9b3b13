/**
 * The Agent Skills specification's rules for a SKILL.md (docs/how-it-works.md § The specification's rules):
 * the front matter's fields and the file's length. Each violation names its field, so `score`, `doctor`, the
 * dry run and the dashboard can say which file and field break which rule, and the loop can refuse an edit
 * that adds one the skill did not already have. Pure: the caller reads the file and names it.
 *
 * The front matter is read as the simple YAML the specification's examples use: top-level `key: value`
 * lines, quoted strings, block scalars (`|`, `>`) and indented continuation lines; a key followed by indented
 * `key:` or `- item` lines holds a mapping or a list. There is no YAML parser among the runtime
 * dependencies, and nothing here needs more than the top-level fields.
 */
import { codePointLength, pySplitLines, stripBom } from './markdown.js';
import { frontmatterClose } from '../frontmatter.js';

const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
const SPEC_NAME_MAX = 64;
const SPEC_DESCRIPTION_MAX = 1024;
const SPEC_COMPATIBILITY_MAX = 500;
/** "Keep your main SKILL.md under 500 lines": more is a violation. */
const SPEC_MAX_LINES = 500;

type SpecRule =
  | 'no-frontmatter'
  | 'unclosed-frontmatter'
  | 'missing'
  | 'not-a-string'
  | 'too-long'
  | 'characters'
  | 'hyphens'
  | 'folder'
  | 'unknown-field'
  | 'too-many-lines';

export interface SpecViolation {
  /** `frontmatter`, a front-matter key (`name`, `description`, an unknown key), or `lines`. */
  field: string;
  rule: SpecRule;
  /** What is wrong, in words that make sense after `<file>: <field>: `. */
  detail: string;
}

/** A top-level front-matter field: its text (null when it holds a mapping or a list) and its 1-based line. */
interface FrontField {
  value: string | null;
  line: number;
}

const TOP_KEY = /^([^\s#:'"-][^:]*?)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;
const BLOCK_SCALAR = /^([|>])[+-]?\d*[+-]?(?:\s+#.*)?$/;
const isIndented = (line: string): boolean => /^[ \t]/.test(line);
const isBlank = (line: string): boolean => line.trim() === '';

/** The text of a quoted scalar that may run over several lines (YAML folds the breaks into spaces). */
function quoted(first: string, more: readonly string[]): string {
  const quote = first[0]!;
  const joined = [first, ...more.map((l) => l.trim())].join(' ');
  let out = '';
  for (let i = 1; i < joined.length; i++) {
    const ch = joined[i]!;
    if (quote === "'" && ch === "'" && joined[i + 1] === "'") {
      out += "'";
      i++;
    } else if (quote === '"' && ch === '\\' && i + 1 < joined.length) {
      const next = joined[++i]!;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (ch === quote) {
      return out;
    } else out += ch;
  }
  return out;
}

/** The scalar text of a field whose value starts on its key's line (`rest`) and goes on over `more`. */
function scalarOf(rest: string, more: readonly string[]): string | null {
  const block = BLOCK_SCALAR.exec(rest);
  if (block) {
    const body = more.map((l) => l.trim());
    return (block[1] === '|' ? body.join('\n') : body.filter((l) => l !== '').join(' ')).trim();
  }
  if (rest.startsWith('"') || rest.startsWith("'")) return quoted(rest, more).trim();
  if (rest === '') {
    const first = more.find((l) => !isBlank(l))?.trim();
    if (first === undefined) return '';
    // Indented `key:` lines or `- item` lines: a mapping or a list, not a string.
    if (/^-(?:\s|$)/.test(first) || /^[^\s#'"][^:]*:(?:\s|$)/.test(first)) return null;
  }
  if (rest.startsWith('[') || rest.startsWith('{')) return null;
  const plain = rest.replace(/\s+#.*$/, '');
  return [plain, ...more.map((l) => l.trim())]
    .filter((l) => l !== '')
    .join(' ')
    .trim();
}

/** The top-level fields of the front matter between line 1 and `close` (0-based line indexes). */
function frontFields(lines: readonly string[], close: number): Map<string, FrontField> {
  const fields = new Map<string, FrontField>();
  for (let i = 1; i < close; i++) {
    const line = lines[i]!;
    if (isBlank(line) || isIndented(line) || line.startsWith('#')) continue;
    const key = TOP_KEY.exec(line);
    if (!key) continue;
    let end = i + 1;
    while (end < close && (isIndented(lines[end]!) || isBlank(lines[end]!))) end++;
    const value = scalarOf((key[2] ?? '').trim(), lines.slice(i + 1, end));
    if (!fields.has(key[1]!)) fields.set(key[1]!, { value, line: i + 1 });
    i = end - 1;
  }
  return fields;
}

const LOWER_OR_DIGIT = /^[\p{Ll}\p{Lo}\p{Nd}-]+$/u;

function nameViolations(name: string, folder: string): SpecViolation[] {
  const out: SpecViolation[] = [];
  const v = (rule: SpecRule, detail: string) => out.push({ field: 'name', rule, detail });
  const shown = JSON.stringify(name);
  if (codePointLength(name) > SPEC_NAME_MAX) {
    v('too-long', `${shown} has ${codePointLength(name)} characters; at most ${SPEC_NAME_MAX}`);
  }
  if (!LOWER_OR_DIGIT.test(name)) {
    v('characters', `${shown} may hold only lowercase letters, digits and hyphens`);
  }
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    v('hyphens', `${shown} may not start or end with a hyphen or hold two in a row`);
  }
  if (folder !== '' && name !== folder) {
    v('folder', `${shown} is not the skill's folder name ${JSON.stringify(folder)}`);
  }
  return out;
}

/** A string field's length rule: present, a string, not empty, at most `max` characters. */
function lengthViolation(field: string, value: FrontField, max: number): SpecViolation | undefined {
  if (value.value === null) return { field, rule: 'not-a-string', detail: 'must be a string' };
  if (value.value === '') return { field, rule: 'missing', detail: 'is empty' };
  const length = codePointLength(value.value);
  if (length > max) return { field, rule: 'too-long', detail: `has ${length} characters; at most ${max}` };
  return undefined;
}

/**
 * Every rule of the specification `text` breaks, as the SKILL.md of a folder named `folder` ('' when the
 * folder's name is not known: the name is then not compared with it).
 */
export function specViolations(text: string, folder: string): SpecViolation[] {
  const lines = pySplitLines(stripBom(text));
  const out: SpecViolation[] = [];
  if (lines.length > SPEC_MAX_LINES) {
    out.push({
      field: 'lines',
      rule: 'too-many-lines',
      detail: `${lines.length} lines; the specification keeps a SKILL.md under ${SPEC_MAX_LINES} (move details to references/)`,
    });
  }
  const close = frontmatterClose(lines);
  if (close === undefined) {
    out.unshift({
      field: 'frontmatter',
      rule: 'no-frontmatter',
      detail: 'none: a SKILL.md starts with a `---` line, the name and description, and a closing `---`',
    });
    return out;
  }
  if (close === null) {
    out.unshift({ field: 'frontmatter', rule: 'unclosed-frontmatter', detail: 'not closed by a `---` line' });
    return out;
  }
  const fields = frontFields(lines, close);
  const head: SpecViolation[] = [];
  const name = fields.get('name');
  if (name === undefined) head.push({ field: 'name', rule: 'missing', detail: 'missing (it is required)' });
  else if (name.value === null)
    head.push({ field: 'name', rule: 'not-a-string', detail: 'must be a string' });
  else if (name.value === '') head.push({ field: 'name', rule: 'missing', detail: 'is empty' });
  else head.push(...nameViolations(name.value, folder));
  const description = fields.get('description');
  if (description === undefined) {
    head.push({ field: 'description', rule: 'missing', detail: 'missing (it is required)' });
  } else {
    const broken = lengthViolation('description', description, SPEC_DESCRIPTION_MAX);
    if (broken) head.push(broken);
  }
  const compatibility = fields.get('compatibility');
  if (compatibility !== undefined) {
    const broken = lengthViolation('compatibility', compatibility, SPEC_COMPATIBILITY_MAX);
    if (broken) head.push(broken);
  }
  const known: ReadonlySet<string> = new Set(SPEC_FIELDS);
  for (const [key, field] of fields) {
    if (known.has(key)) continue;
    head.push({
      field: key,
      rule: 'unknown-field',
      detail: `not a field of the specification (line ${field.line}; it knows ${SPEC_FIELDS.join(', ')}; put your own under metadata)`,
    });
  }
  return [...head, ...out];
}

/** `<file>: <field>: <detail>`, the one way a violation is written. */
export function formatViolation(file: string, violation: SpecViolation): string {
  return `${file}: ${violation.field}: ${violation.detail}`;
}

/** The violations `after` has that `before` did not (by field and rule): what an edit would introduce. */
export function introducedViolations(
  before: readonly SpecViolation[],
  after: readonly SpecViolation[],
): SpecViolation[] {
  const had = new Set(before.map((v) => `${v.field}\u0000${v.rule}`));
  return after.filter((v) => !had.has(`${v.field}\u0000${v.rule}`));
}
