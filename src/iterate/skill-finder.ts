/**
 * Finds a project's skills (docs/how-it-works.md § The queue): the folders the `skills` setting's globs
 * match that hold a SKILL.md, each followed to its real folder or refused by the one link rule
 * (symlinks.ts); skills whose folders share a name (one per plugin) each get an identity naming their
 * plugin (`a.setup`, qualifiedSkillNames), and only two that nothing tells apart are both left out;
 * and the skills that public collections keep elsewhere (`skills/*`, `*\/skills/*`, `plugins/*\/skills/*`,
 * the plugins of `.claude-plugin/marketplace.json`, `*`) are detected, never queued, so a hint can name
 * them with the setting that finds them and nothing else (placeholders such as `template/` left out).
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  DETECTED_NESTED_SKILLS_GLOBS,
  DETECTED_SKILLS_GLOBS,
  MARKETPLACE_FILE,
  ROOT_SKILLS_GLOB,
  SKILL_FILE,
  globSegments,
  isValidSkillName,
  isPlaceholderSkill,
  isWildcard,
  folderNameOf,
  marketplaceSkillGlobs,
  matchesSegment,
  qualifiedSkillNames,
  skillsSettingHint,
  iterateCommandLine,
  type CommandSetting,
  type SkillExclusion,
  type SkillLocation,
} from '../core/iterate/skill-layout.js';
import { NotRegularFileError, inspectFile, readRegularFile } from './regular-file.js';
import { decideSkillFolder } from './symlinks.js';

export interface OutsideSkill extends SkillLocation {
  /** The detection glob that found it. */
  glob: string;
  /** A folder to copy rather than a skill (`template/`): named, never proposed for the setting. */
  placeholder?: boolean;
}

export interface FoundSkills {
  /** The setting's globs the skills were found with. */
  globs: readonly string[];
  /** Those of them that matched at least one folder with a SKILL.md. */
  productiveGlobs: readonly string[];
  /** Skills to consider, by name (code-point order), each with its real folder. */
  skills: SkillLocation[];
  /** Folders the setting matched that cannot be skills: links, a SKILL.md that is not a regular file, duplicate names, names git refuses. */
  excluded: SkillExclusion[];
  /** Skills found where public collections keep them, or by a walk of the tree, but the setting does not look. */
  outside: OutsideSkill[];
  /** The fewest globs that find every outside skill but the placeholders, each with the folders it finds. */
  proposed: ProposedGlob[];
}

export interface ProposedGlob {
  glob: string;
  /** The outside skills' folders it finds. */
  dirs: string[];
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The folders (relative to `root`, as the glob spells them) that match the glob and hold a SKILL.md (a
 * linked one too: the link rule refuses it with its reason). Listing through a linked folder only reads
 * names; nothing is read from a folder before the link rule has decided on it.
 */
export async function expandSkillsGlob(root: string, glob: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, segments: readonly string[], rel: string): Promise<void> => {
    if (segments.length === 0) {
      if (await exists(path.join(dir, SKILL_FILE))) found.push(rel);
      return;
    }
    const [segment, ...rest] = segments as [string, ...string[]];
    const join = (name: string) => (rel ? `${rel}/${name}` : name);
    if (!isWildcard(segment)) {
      const next = path.join(dir, segment);
      if (await isDirectory(next)) await walk(next, rest, join(segment));
      return;
    }
    const names = (await entriesOf(dir))
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && matchesSegment(segment, e.name))
      .map((e) => e.name)
      .sort(byCodePoint);
    for (const name of names) {
      const next = path.join(dir, name);
      if (await isDirectory(next)) await walk(next, rest, join(name));
    }
  };
  await walk(root, globSegments(glob), '');
  return found;
}

const basename = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** Finds the skills the setting names, and those it misses where skills usually live. */
// eslint-disable-next-line max-lines-per-function -- 121 lines: the glob walk, the identity of repeated names and the hints read as one pass; not yet split (issue 30 item 3)
export async function findSkills(input: {
  project: string;
  repository: string;
  globs: readonly string[];
}): Promise<FoundSkills> {
  const { project, globs } = input;
  const matched: string[] = [];
  const productiveGlobs: string[] = [];
  for (const glob of globs) {
    const folders = await expandSkillsGlob(project, glob);
    if (folders.length > 0) productiveGlobs.push(glob);
    for (const rel of folders) if (!matched.includes(rel)) matched.push(rel);
  }

  const excluded: SkillExclusion[] = [];
  const byRealDir = new Map<string, SkillLocation>();
  for (const found of matched) {
    const name = basename(found);
    const decision = await decideSkillFolder({ project, repository: input.repository }, found);
    if (!decision.ok) {
      excluded.push({
        skill: name,
        dir: found,
        reason: decision.reason,
        next: 'replace the link by the files themselves',
      });
      continue;
    }
    // A directory, FIFO or socket named SKILL.md cannot be a skill: left out here, with its reason, so the
    // plan and the run take the same decision (docs/how-it-works.md § The queue); the run checks again.
    const skillFile = await inspectFile(path.join(project, decision.dir, SKILL_FILE));
    if (skillFile instanceof NotRegularFileError) {
      excluded.push({
        skill: name,
        dir: found,
        reason: `${decision.dir}/${SKILL_FILE} ${skillFile.detail}`,
        next: `replace it by a regular file holding the skill's instructions`,
      });
      continue;
    }
    // The same folder matched twice (a link and its target both in the setting) is one skill.
    if (!byRealDir.has(decision.dir)) byRealDir.set(decision.dir, { name, dir: decision.dir });
  }

  // Plugins namespace their skills, so folder names repeat: each such skill gets an identity naming its
  // plugin (`a.setup`); a name that does not repeat stays the identity, so existing state still matches.
  const byName = new Map<string, SkillLocation[]>();
  for (const skill of byRealDir.values()) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
  const named: SkillLocation[] = [];
  for (const [name, same] of byName) {
    const identities =
      same.length > 1
        ? qualifiedSkillNames(
            name,
            same.map((s) => s.dir),
          )
        : undefined;
    for (const skill of same) named.push({ name: identities?.get(skill.dir) ?? name, dir: skill.dir });
  }
  const byIdentity = new Map<string, SkillLocation[]>();
  for (const skill of named) byIdentity.set(skill.name, [...(byIdentity.get(skill.name) ?? []), skill]);
  const skills: SkillLocation[] = [];
  for (const [name, same] of byIdentity) {
    if (same.length > 1) {
      for (const skill of same) {
        const others = same.filter((s) => s !== skill).map((s) => s.dir);
        excluded.push({
          skill: name,
          dir: skill.dir,
          reason: `duplicate name: also at ${others.join(', ')} (branches and run state are keyed by the name)`,
          next: 'rename one of the folders, or narrow the skills setting to one of them',
        });
      }
    } else if (!isValidSkillName(name)) {
      excluded.push({
        skill: name,
        dir: same[0]!.dir,
        reason: 'not a branch-safe name (it becomes the branch skill-iterate/<name>-<epoch>)',
        next: 'rename the folder: letters, digits, ".", "_" and "-", starting with a letter or digit',
      });
    } else {
      skills.push(same[0]!);
    }
  }
  skills.sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.dir, b.dir));
  excluded.sort((a, b) => byCodePoint(a.skill, b.skill) || byCodePoint(a.dir, b.dir));

  // Every folder the setting matched, by its real path, so a detected skill reached through a link is known.
  const known = new Set<string>();
  for (const found of matched) known.add(await realpath(path.join(project, found)).catch(() => found));
  const outside: OutsideSkill[] = [];
  const detection = [
    ...DETECTED_SKILLS_GLOBS,
    ...(await marketplaceGlobs(project)),
    ...DETECTED_NESTED_SKILLS_GLOBS,
    ROOT_SKILLS_GLOB,
  ].filter((glob, i, all) => all.indexOf(glob) === i);
  for (const glob of detection) {
    if (globs.includes(glob)) continue;
    for (const rel of await expandSkillsGlob(project, glob)) {
      const real = await realpath(path.join(project, rel)).catch(() => rel);
      if (known.has(real)) continue;
      known.add(real);
      const name = basename(rel);
      outside.push({ name, dir: rel, glob, ...(isPlaceholderSkill(name) ? { placeholder: true } : {}) });
    }
  }
  // Folders no usual layout reaches (`preview/*`, `skill-flavors/*`) are named too, by their parent.
  for (const rel of await unreachedSkillFolders(project, known)) {
    const name = basename(rel);
    const glob = `${rel.slice(0, rel.lastIndexOf('/'))}/*`;
    outside.push({ name, dir: rel, glob, ...(isPlaceholderSkill(name) ? { placeholder: true } : {}) });
  }
  const proposed = await coveringGlobs(
    project,
    [...detection, ...outside.map((s) => s.glob)],
    matched,
    outside,
  );
  return { globs, productiveGlobs, skills, excluded, outside, proposed };
}

/**
 * The skill a `--skill`/argument names: its identity. A folder name that several plugins share answers
 * with the message naming each identity, so the operator can pick one.
 */
export function ambiguousSkillName(found: FoundSkills, name: string): string | undefined {
  if (found.skills.some((s) => s.name === name)) return undefined;
  const same = found.skills.filter((s) => folderNameOf(s) === name);
  if (same.length === 0) return undefined;
  return (
    `${same.length} skills have folders named ${name}: ${same.map((s) => `${s.name} (${s.dir})`).join(', ')}; ` +
    `name one of them (${same.map((s) => s.name).join(', ')})`
  );
}

/** A marketplace file bigger than this is not a plugin list. */
const MARKETPLACE_MAX_BYTES = 1024 * 1024;

/** The skill folders `.claude-plugin/marketplace.json` declares; none when it is absent or unreadable. */
async function marketplaceGlobs(project: string): Promise<string[]> {
  try {
    const text = await readRegularFile(
      path.join(project, ...MARKETPLACE_FILE.split('/')),
      MARKETPLACE_MAX_BYTES,
    );
    return text === undefined ? [] : marketplaceSkillGlobs(JSON.parse(text));
  } catch {
    // Not JSON, not a file, too large: detection is a hint, never a halt.
    return [];
  }
}

/** Folders never walked for unreached skills: dependencies, version control, test data. */
const UNWALKED =
  /^(?:\.git|node_modules|test|tests|__tests__|fixtures|__fixtures__|testdata|dist|build|coverage)$/;
/** How deep and how wide the walk for unreached skills goes: a hint, never a crawl of a monorepo. */
const WALK_MAX_DEPTH = 6;
const WALK_MAX_FOLDERS = 20_000;

/**
 * Folders holding a SKILL.md that neither the setting nor any detection glob reached (`preview/<x>`,
 * `skill-flavors/<x>`), two levels deep or more (`*` finds the first level). A skill's own subfolders are
 * not walked (a SKILL.md there is an example of it); links are not followed.
 */
async function unreachedSkillFolders(project: string, known: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  let budget = WALK_MAX_FOLDERS;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const entries = (await entriesOf(dir)).filter((e) => e.isDirectory() && !UNWALKED.test(e.name));
    for (const entry of entries.sort((a, b) => byCodePoint(a.name, b.name))) {
      if (--budget < 0) return;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const child = path.join(dir, entry.name);
      if (await exists(path.join(child, SKILL_FILE))) {
        if (depth > 0 && !known.has(await realpath(child).catch(() => child))) found.push(childRel);
        continue;
      }
      if (depth + 1 < WALK_MAX_DEPTH) await walk(child, childRel, depth + 1);
    }
  };
  await walk(project, '', 0);
  return found;
}

/**
 * The fewest globs that find exactly the outside skills (docs/how-it-works.md § The queue): of the
 * candidates (the detection globs, each skill's parent with `*`), only those that find nothing else but
 * folders the setting already matches; the one finding most of the skills not yet covered first (ties: the
 * candidate listed first, so the author's marketplace words before the generic ones). `plugins/*\/skills/*`
 * thus replaces one glob per plugin, `*` that also finds `template/` is never proposed, and a skill no
 * clean glob finds is named by its folder.
 */
async function coveringGlobs(
  project: string,
  candidates: readonly string[],
  matched: readonly string[],
  outside: readonly OutsideSkill[],
): Promise<ProposedGlob[]> {
  const wanted = new Set(outside.filter((s) => !s.placeholder).map((s) => s.dir));
  const allowed = new Set([...wanted, ...matched]);
  const clean: ProposedGlob[] = [];
  for (const glob of candidates.filter((g, i, all) => all.indexOf(g) === i)) {
    const dirs = await expandSkillsGlob(project, glob);
    if (dirs.every((d) => allowed.has(d))) clean.push({ glob, dirs: dirs.filter((d) => wanted.has(d)) });
  }
  const proposed: ProposedGlob[] = [];
  const left = new Set(wanted);
  while (left.size > 0) {
    let best: ProposedGlob | undefined;
    let bestCount = 0;
    for (const candidate of clean) {
      const count = candidate.dirs.filter((d) => left.has(d)).length;
      if (count > bestCount) [best, bestCount] = [candidate, count];
    }
    if (!best) break;
    proposed.push({ glob: best.glob, dirs: best.dirs.filter((d) => left.has(d)) });
    for (const dir of best.dirs) left.delete(dir);
  }
  for (const dir of left) proposed.push({ glob: dir, dirs: [dir] });
  return proposed;
}

/**
 * The hint for skills outside the setting: how many, where, and the exact setting that would include them
 * (the setting's globs that found skills, plus the ones that found these).
 */
export function outsideSkillsHint(found: FoundSkills, setting?: CommandSetting): string | undefined {
  const skills = found.outside.filter((s) => !s.placeholder);
  const placeholders = found.outside.filter((s) => s.placeholder);
  if (found.outside.length === 0) return undefined;
  const aside =
    placeholders.length === 0
      ? ''
      : ` (${placeholders.map((s) => `${s.dir}/`).join(', ')} ${placeholders.length === 1 ? 'looks' : 'look'} like ` +
        `a placeholder to copy, not a skill, and ${placeholders.length === 1 ? 'is' : 'are'} left out of the setting below)`;
  if (skills.length === 0) {
    const one = placeholders.length === 1;
    return (
      `${placeholders.map((s) => `${s.dir}/`).join(', ')}, outside the skills setting (${found.globs.join(', ')}), ` +
      `${one ? 'looks' : 'look'} like ${one ? 'a placeholder' : 'placeholders'} to copy, not ${one ? 'a skill' : 'skills'} to iterate; not proposed for the setting`
    );
  }
  const where = found.proposed
    .map(({ glob, dirs }) => {
      const names = dirs.map(basename);
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
      return `${glob} (${shown})`;
    })
    .join('; ');
  // The setting's globs that found something stay (a link's real folders may match none of them).
  const wanted = [...found.productiveGlobs, ...found.proposed.map((p) => p.glob)];
  const hint = skillsSettingHint(wanted);
  const count = skills.length;
  const check = iterateCommandLine('--dry-run', { ...setting, skills: wanted, mode: undefined });
  return (
    `${count} ${count === 1 ? 'skill is' : 'skills are'} outside the skills setting ` +
    `(${found.globs.join(', ')}) and not queued: ${where}${aside}. To include ${count === 1 ? 'it' : 'them'}, ` +
    `set ${hint.config} in skillclimb.config.json, or pass ${hint.flag} (\`${check}\`)`
  );
}
