/**
 * `results.tsv` (docs/how-it-works.md § Morning summary and results.tsv, Step G): one row per iteration, append-only, readable by the original Python tooling.
 * Pure formatting and parsing; the file I/O lives in src/iterate/results-file.ts.
 */
import type { ResultsRow } from './run-result.js';
import type { ScoreMode } from './score-types.js';
import { redactSecrets } from '../text/redact.js';

export const RESULTS_HEADER = 'commit\tscore\tstatus\tdescription\twall_seconds';

const STATUSES: ReadonlySet<string> = new Set<ResultsRow['status']>(['baseline', 'keep', 'revert', 'crash']);

/**
 * Everything that would split a field or a line. Beyond tab/LF/CR this covers the other separators
 * Python's `splitlines` honours, so the original tooling reads the same rows we do.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here.
const FIELD_BREAKS = /\r\n|[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;

function sanitizeField(value: string): string {
  return value.replace(FIELD_BREAKS, ' ');
}

function formatScore(score: number | null): string {
  return score === null || !Number.isFinite(score) ? 'NULL' : score.toFixed(6);
}

function formatWall(seconds: number): string {
  // A clock step backwards or a missing measurement must not produce "NaN" or "-0.001" in the audit trail.
  return Number.isFinite(seconds) && seconds > 0 ? seconds.toFixed(3) : '0.000';
}

/**
 * One line, no trailing newline: score with 6 decimals or NULL, wall with 3, tabs/newlines → spaces. The
 * description may quote a provider error; the exact `secrets` in use and credential-shaped text are
 * redacted (the file is committed; docs/how-it-works.md § Untrusted text and secrets).
 */
export function formatResultsRow(row: ResultsRow, secrets: readonly string[] = []): string {
  return [
    sanitizeField(row.commit),
    formatScore(row.score),
    row.status,
    sanitizeField(redactSecrets(row.description, secrets)),
    formatWall(row.wallSeconds),
  ].join('\t');
}

/**
 * The mode marker of a row: composite rows (the original's only mode) have none, so the original's
 * columns and tooling read them as before; structural and absolute rows start their description with
 * `[structural] ` or `[absolute] `, so rows of two modes in one file are never read as one series.
 */
export function withModeMarker(description: string, mode: ScoreMode): string {
  return mode === 'composite' ? description : `[${mode}] ${description}`;
}

/** The mode a row was scored in, from its description's marker (none: composite). */
export function rowMode(description: string): ScoreMode {
  const marker = /^\[(structural|absolute)\] /.exec(description);
  return marker ? (marker[1] as ScoreMode) : 'composite';
}

const STRICT_SCORE = /^(?:NULL|-?\d+\.\d{6})$/;
const STRICT_WALL = /^\d+\.\d{3}$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Parses one line, or returns undefined when it is not a row. `strict` demands exactly the widths
 * `formatResultsRow` writes: a torn write always cuts inside the last field (wall_seconds), so requiring
 * its full `N.NNN` shape is what tells a torn final line from a whole one.
 */
function parseLine(line: string, strict: boolean): ResultsRow | undefined {
  const fields = line.split('\t');
  if (fields.length < 5) return undefined;
  const commit = fields[0] ?? '';
  const scoreText = fields[1] ?? '';
  const status = fields[2] ?? '';
  const wallText = fields[fields.length - 1] ?? '';
  // A hand-edited description may hold tabs; everything between status and wall belongs to it.
  const description = fields.slice(3, -1).join(' ');
  if (!STATUSES.has(status)) return undefined;
  if (strict && (!STRICT_SCORE.test(scoreText) || !STRICT_WALL.test(wallText))) return undefined;
  const score = scoreText === 'NULL' ? null : parseNumber(scoreText);
  if (score === undefined) return undefined;
  const wallSeconds = parseNumber(wallText);
  if (wallSeconds === undefined) return undefined;
  return { commit, score, status: status as ResultsRow['status'], description, wallSeconds };
}

/**
 * Rows of a `results.tsv`, in file order. Tolerant by design — a missing header, blank lines, CRLF line
 * ends, foreign lines and a torn last line (an interrupted append) are skipped, never thrown on.
 */
export function parseResultsTsv(text: string): ResultsRow[] {
  const lines = text.split('\n');
  // After a final newline split() yields '', so the last element is unterminated exactly when it is non-empty.
  const lastIndex = lines.length - 1;
  const rows: ResultsRow[] = [];
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line === RESULTS_HEADER) return;
    const row = parseLine(line, index === lastIndex);
    if (row) rows.push(row);
  });
  return rows;
}
