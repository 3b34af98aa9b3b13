/**
 * The nightmare verifier's read-only tools (docs/how-it-works.md § Debate and nightmare): read a file,
 * list a folder, search text — over the reviewed head only, bounded in calls and bytes, paths confined to
 * the repository (no absolute paths, no `..`; symbolic links are reported, never followed) and never into
 * the loop's own records, so the verifier cannot read the executor's notes instead of the code.
 */
import { forbiddenArea, normalizeRepoPath } from '../core/review/edits.js';
import type { VerifierLimits } from '../core/review/prompts.js';
import type { ReadOnlyTools, ReviewTarget } from '../ports/review.js';

const MAX_HITS = 50;
const MAX_HIT_LINE = 300;
const MIN_QUERY = 2;

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** '' / '.' / '/' mean the repository root; anything else must be a confined relative path. */
function folderPath(raw: string | undefined): { ok: true; path: string } | { ok: false; reason: string } {
  const text = (raw ?? '').trim().replace(/\/+$/, '');
  if (text === '' || text === '.' || text === '/') return { ok: true, path: '' };
  return normalizeRepoPath(text);
}

function refusedArea(path: string): string | undefined {
  const area = forbiddenArea(path);
  return area === undefined ? undefined : `${area} is not readable by the verifier (the loop's own records)`;
}

export function createReadOnlyTools(
  target: ReviewTarget,
  head: string,
  limits: VerifierLimits,
): ReadOnlyTools {
  let calls = 0;
  let bytes = 0;

  /** Counts a call; returns the refusal to send instead when the budget is spent. */
  function admit(): string | undefined {
    if (calls >= limits.maxToolCalls || bytes >= limits.maxToolBytes) {
      return `Tool budget spent (${calls} calls, ${bytes} bytes): answer now with the JSON object.`;
    }
    calls++;
    return undefined;
  }

  /** Charges the bytes of a result, cutting it to what the byte budget has left. */
  function charge(text: string): string {
    const left = limits.maxToolBytes - bytes;
    let out = text;
    if (byteLength(out) > left) {
      out = Buffer.from(out, 'utf8').subarray(0, Math.max(0, left)).toString('utf8');
      out += `\n[… cut: the tool output budget of ${limits.maxToolBytes} bytes is spent]`;
    }
    bytes += byteLength(out);
    return out;
  }

  return {
    limits,
    async readFile(raw) {
      const spent = admit();
      if (spent) return spent;
      const checked = normalizeRepoPath(raw);
      if (!checked.ok) return `Refused: ${checked.reason}.`;
      const area = refusedArea(checked.path);
      if (area) return `Refused: ${area}.`;
      const read = await target.readFile(checked.path, head, Math.max(1, limits.maxToolBytes - bytes));
      switch (read.kind) {
        case 'file':
          return charge(
            read.truncated ? `${read.text}\n[… cut: the file has ${read.bytes} bytes]` : read.text,
          );
        case 'missing':
          return `No file ${checked.path} at the reviewed head.`;
        case 'symlink':
          return `${checked.path} is a symbolic link; links are not followed.`;
        case 'folder':
          return `${checked.path} is a folder; use list_folder.`;
        case 'binary':
          return `${checked.path} is a binary file (${read.bytes} bytes).`;
      }
    },
    async listFolder(raw) {
      const spent = admit();
      if (spent) return spent;
      const checked = folderPath(raw);
      if (!checked.ok) return `Refused: ${checked.reason}.`;
      const area = checked.path === '' ? undefined : refusedArea(`${checked.path}/`);
      if (area) return `Refused: ${area}.`;
      const entries = await target.listFolder(checked.path, head);
      if (entries === undefined) return `No folder ${checked.path} at the reviewed head.`;
      const shown = entries
        .filter(
          (e) => refusedArea(checked.path === '' ? `${e.name}/` : `${checked.path}/${e.name}/`) === undefined,
        )
        .map((e) =>
          e.kind === 'folder' ? `${e.name}/` : e.kind === 'symlink' ? `${e.name} (symbolic link)` : e.name,
        );
      return charge(shown.length ? shown.join('\n') : '(empty folder)');
    },
    async searchText(query, folder) {
      const spent = admit();
      if (spent) return spent;
      if (query.trim().length < MIN_QUERY) return `Refused: search for at least ${MIN_QUERY} characters.`;
      const checked = folderPath(folder);
      if (!checked.ok) return `Refused: ${checked.reason}.`;
      const area = checked.path === '' ? undefined : refusedArea(`${checked.path}/`);
      if (area) return `Refused: ${area}.`;
      const hits = await target.searchText(query, head, {
        ...(checked.path === '' ? {} : { folder: checked.path }),
        maxHits: MAX_HITS,
      });
      const visible = hits.filter((h) => refusedArea(h.path) === undefined);
      if (visible.length === 0) return 'No matches.';
      const lines = visible.map(
        (h) =>
          `${h.path}:${h.line}: ${h.text.length > MAX_HIT_LINE ? `${h.text.slice(0, MAX_HIT_LINE)}…` : h.text}`,
      );
      const more = hits.length >= MAX_HITS ? `\n[first ${MAX_HITS} matches only]` : '';
      return charge(`${lines.join('\n')}${more}`);
    },
  };
}
