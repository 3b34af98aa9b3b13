/**
 * A pull request in memory, implementing the review engine's `ReviewTarget` port (src/ports/review.ts)
 * for `npm run bench:review-quality`: commits are file maps with SHA-1 ids, diffs are unified diffs (three
 * lines of context) computed here, and a fix is a new commit on the pull request's branch. It stands in
 * for the CLI's git checkout and the App's pull request alike, so a loop costs no process spawn — the
 * engine's round, gate and fix code runs unchanged on it. Not modelled: renames, binary files, symbolic
 * links, size limits other than the budgets the engine passes.
 */
import { createHash } from 'node:crypto';

const CONTEXT = 3;

/** The lines of a text, without the empty string after its final line break. */
function linesOf(text) {
  if (text === undefined || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** An edit script from an LCS table: [' ' | '-' | '+', line] in order. */
function editScript(a, b) {
  const n = a.length;
  const m = b.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push([' ', a[i], i, j]);
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(['+', b[j], i, j]);
      j++;
    } else {
      out.push(['-', a[i], i, j]);
      i++;
    }
  }
  return out;
}

/** The unified diff of one file (`before` undefined: added; `after` undefined: deleted). */
export function fileDiff(path, before, after) {
  const a = linesOf(before);
  const b = linesOf(after);
  const script = editScript(a, b);
  const changed = script.map((e, k) => (e[0] !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  const hunks = [];
  let start = Math.max(0, changed[0] - CONTEXT);
  let end = Math.min(script.length, changed[0] + CONTEXT + 1);
  for (const k of changed.slice(1)) {
    if (k - CONTEXT <= end) end = Math.min(script.length, k + CONTEXT + 1);
    else {
      hunks.push([start, end]);
      start = k - CONTEXT;
      end = Math.min(script.length, k + CONTEXT + 1);
    }
  }
  hunks.push([start, end]);
  const header = [
    `diff --git a/${path} b/${path}`,
    ...(before === undefined
      ? ['new file mode 100644']
      : after === undefined
        ? ['deleted file mode 100644']
        : []),
    `--- ${before === undefined ? '/dev/null' : `a/${path}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`,
  ];
  const body = hunks.flatMap(([s, e]) => {
    const part = script.slice(s, e);
    const oldCount = part.filter((x) => x[0] !== '+').length;
    const newCount = part.filter((x) => x[0] !== '-').length;
    const oldStart = oldCount === 0 ? part[0][2] : part.find((x) => x[0] !== '+')[2] + 1;
    const newStart = newCount === 0 ? part[0][3] : part.find((x) => x[0] !== '-')[3] + 1;
    return [
      `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`,
      ...part.map(([op, line]) => `${op}${line}`),
    ];
  });
  return [...header, ...body].join('\n');
}

const sha = (parent, files) =>
  createHash('sha1')
    .update(`${parent}\0${JSON.stringify(Object.entries(files).sort())}`)
    .digest('hex');

function bounded(text, budget) {
  if (text.length <= budget) return { text, omittedChars: 0 };
  const cut = text.lastIndexOf('\n', budget);
  const end = cut > budget / 2 ? cut : budget;
  return { text: text.slice(0, end), omittedChars: text.length - end };
}

/**
 * `base` and `head` are `{path: text}` maps; the pull request is one commit on top of the base. Returns
 * the target and `files(sha)`, the file map of any commit it made (for the benchmark's ground truth).
 */
export function createPullTarget({ number, base, head, claims }) {
  const commits = new Map();
  const baseSha = sha('', base);
  commits.set(baseSha, base);
  let headSha = sha(baseSha, head);
  commits.set(headSha, { ...base, ...head });
  const filesAt = (at) => {
    const files = commits.get(at);
    if (files === undefined) throw new Error(`no commit ${at} in pull request #${number}`);
    return files;
  };
  const differing = (from, to) => {
    const a = filesAt(from);
    const b = filesAt(to);
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().filter((p) => a[p] !== b[p]);
  };
  const target = {
    label: `pull request #${number} (in memory)`,
    async claims() {
      return { source: `pull request #${number}`, text: claims(filesAt(headSha)) };
    },
    async resolve() {
      return { base: baseSha, head: headSha };
    },
    async filesUnderReview(from, to) {
      return differing(from, to).filter((p) => filesAt(to)[p] !== undefined);
    },
    async diff(from, to, budget) {
      const a = filesAt(from);
      const b = filesAt(to);
      const text = differing(from, to)
        .map((p) => fileDiff(p, a[p], b[p]))
        .join('\n');
      return bounded(text === '' ? '' : `${text}\n`, budget);
    },
    async changedFiles(from, to) {
      return differing(from, to);
    },
    async readFile(path, at, maxBytes) {
      const text = filesAt(at)[path];
      if (text === undefined) {
        const folder = Object.keys(filesAt(at)).some((p) => p.startsWith(`${path}/`));
        return folder ? { kind: 'folder' } : { kind: 'missing' };
      }
      const bytes = Buffer.byteLength(text);
      return bytes > maxBytes
        ? { kind: 'file', text: text.slice(0, maxBytes), bytes, truncated: true }
        : { kind: 'file', text, bytes, truncated: false };
    },
    async listFolder(path, at) {
      const prefix = path === '' ? '' : `${path}/`;
      const names = new Map();
      for (const p of Object.keys(filesAt(at))) {
        if (!p.startsWith(prefix)) continue;
        const [first, ...rest] = p.slice(prefix.length).split('/');
        names.set(first, rest.length ? 'folder' : 'file');
      }
      return names.size === 0 ? undefined : [...names].map(([name, kind]) => ({ name, kind }));
    },
    async searchText(query, at, { folder, maxHits }) {
      const hits = [];
      for (const [p, text] of Object.entries(filesAt(at))) {
        if (folder && !p.startsWith(`${folder}/`)) continue;
        linesOf(text).forEach((line, i) => {
          if (line.includes(query) && hits.length < maxHits) hits.push({ path: p, line: i + 1, text: line });
        });
      }
      return hits;
    },
    async commitFiles(files) {
      const next = { ...filesAt(headSha) };
      for (const f of files) next[f.path] = f.text;
      const id = sha(headSha, next);
      commits.set(id, next);
      headSha = id;
      return { head: id, refused: [] };
    },
  };
  return { target, files: filesAt, head: () => headSha };
}
