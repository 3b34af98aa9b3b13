/**
 * The files of a commit as the structural metrics look them up (docs/how-it-works.md § Scoring): a
 * worktree checks out only its skill's folder, but a link or a `[[ref]]` in the SKILL.md may point anywhere
 * in the repository, so the lookups read the whole tree from git (`ls-tree` at the base commit) and answer
 * as a full checkout of that commit would — the same scores, without writing the repository to disk.
 *
 * Paths are walked one component at a time, the way the file system resolves them: `a/missing/../b` does
 * not exist, a file is not a folder, a link is followed (relative to its folder, up to 40 hops), and a
 * submodule is an empty folder (a new worktree does not check submodules out). A path outside the
 * repository — a memory folder above the worktree, an absolute link, a link that leaves the tree — is
 * looked up on disk, as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileLookup } from '../ports/git.js';
import { runGit } from './client.js';

interface Entry {
  kind: 'file' | 'dir' | 'link';
  /** A link's target, as stored in its blob. */
  target?: string;
}

/** Symbolic links the kernel follows before giving up with ELOOP. */
const MAX_LINK_HOPS = 40;

/** The contents of `oids` (blobs), read in one `git cat-file --batch`. */
function readBlobs(dir: string, oids: readonly string[]): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch failed in ${dir}: ${stderr.trim()}`));
      const out = Buffer.concat(chunks);
      const blobs = new Map<string, string>();
      let at = 0;
      for (const oid of oids) {
        const headerEnd = out.indexOf(10, at);
        const size = Number(out.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
        blobs.set(oid, out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
        at = headerEnd + 1 + size + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(oids.map((oid) => `${oid}\n`).join(''));
  });
}

function onDisk(absolutePath: string): boolean {
  return existsSync(absolutePath);
}

function listOnDisk(absolutePath: string): string[] {
  try {
    return statSync(absolutePath).isDirectory() ? readdirSync(absolutePath) : [];
  } catch {
    return [];
  }
}

/**
 * The lookups for paths under `root` (the worktree), answered from `commit`'s tree, read by git in `repo`
 * (any checkout of the same repository; default `root`, so the tree can be read while the worktree is
 * still being made). Names compare as a case-insensitive file system does when git's `core.ignorecase`
 * says so.
 */
export async function readTreeFiles(root: string, commit: string, repo: string = root): Promise<FileLookup> {
  const listing = await runGit(repo, 'ls-tree', ['ls-tree', '-r', '-t', '-z', '--full-tree', commit]);
  // Only a case-insensitive file system sets it, and asking costs a git process per worktree.
  const ignoreCase =
    os.platform() !== 'linux' &&
    (await runGit(repo, 'config', ['config', '--bool', '--default', 'false', 'core.ignorecase'])).trim() ===
      'true';
  const key = (p: string) => (ignoreCase ? p.toLowerCase() : p);
  const entries = new Map<string, Entry>([['', { kind: 'dir' }]]);
  const children = new Map<string, string[]>();
  const links: Array<{ path: string; oid: string }> = [];
  for (const record of listing.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    const file = record.slice(tab + 1);
    const kind: Entry['kind'] =
      type === 'tree' || type === 'commit' ? 'dir' : mode === '120000' ? 'link' : 'file';
    entries.set(key(file), { kind });
    if (kind === 'link') links.push({ path: key(file), oid: oid! });
    const parent = key(path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file));
    children.set(parent, [...(children.get(parent) ?? []), path.posix.basename(file)]);
  }
  if (links.length > 0) {
    const targets = await readBlobs(
      repo,
      links.map((l) => l.oid),
    );
    for (const link of links) entries.get(link.path)!.target = targets.get(link.oid) ?? '';
  }

  type Resolved = { inTree: true; path: string; entry: Entry } | { inTree: false; disk: string };

  /** Walks `rel` (unnormalised, repository-relative) from the root; undefined when it does not resolve. */
  const resolve = (rel: string): Resolved | undefined => {
    let parts = rel.split('/');
    let current = '';
    let hops = 0;
    while (parts.length > 0) {
      const part = parts.shift()!;
      const here = entries.get(key(current));
      // Every component but the last must be a folder, even before `.` or `..`.
      if (here === undefined || here.kind !== 'dir') return undefined;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (current === '') {
          // Above the repository: the rest is on disk, next to the worktree.
          return { inTree: false, disk: [path.dirname(root), ...parts].join(path.sep) };
        }
        current = path.posix.dirname(current) === '.' ? '' : path.posix.dirname(current);
        continue;
      }
      const next = current === '' ? part : `${current}/${part}`;
      const entry = entries.get(key(next));
      if (entry === undefined) return undefined;
      if (entry.kind === 'link') {
        if (++hops > MAX_LINK_HOPS) return undefined;
        const target = entry.target ?? '';
        if (path.posix.isAbsolute(target)) return { inTree: false, disk: [target, ...parts].join('/') };
        parts = [...target.split('/'), ...parts];
        continue;
      }
      current = next;
    }
    return { inTree: true, path: current, entry: entries.get(key(current))! };
  };

  /** `absolutePath` relative to the root, unnormalised; undefined when it is outside the worktree. */
  const inside = (absolutePath: string): string | undefined => {
    if (absolutePath === root) return '';
    const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
    if (!absolutePath.startsWith(prefix)) return undefined;
    return absolutePath.slice(prefix.length).split(path.sep).join('/');
  };

  return {
    exists(absolutePath) {
      const rel = inside(absolutePath);
      if (rel === undefined) return onDisk(absolutePath);
      const found = resolve(rel);
      if (found === undefined) return false;
      return found.inTree ? true : onDisk(found.disk);
    },
    listDir(absolutePath) {
      const rel = inside(absolutePath);
      if (rel === undefined) return listOnDisk(absolutePath);
      const found = resolve(rel);
      if (found === undefined) return [];
      if (!found.inTree) return listOnDisk(found.disk);
      return found.entry.kind === 'dir' ? [...(children.get(key(found.path)) ?? [])] : [];
    },
  };
}
