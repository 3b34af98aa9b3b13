/**
 * Finds a project's skills (docs/how-it-works.md § The queue): the folders the `skills` setting's globs
 * match that hold a SKILL.md, each followed to its real folder or refused by the one link rule
 * (symlinks.ts); two skills with one name are both left out (branches and state are keyed by the name);
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
  marketplaceSkillGlobs,
  matchesSegment,
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
  /** Skills found where public collections keep them but the setting does not look. */
  outside: OutsideSkill[];
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

  const byName = new Map<string, SkillLocation[]>();
  for (const skill of byRealDir.values()) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
  const skills: SkillLocation[] = [];
  for (const [name, same] of byName) {
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
  return { globs, productiveGlobs, skills, excluded, outside };
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

/**
 * The globs that find exactly the detected skills: a detection glob as it is when everything it found is
 * a skill, else the skill folders it found one by one (so `*` that also finds `template/` is not proposed).
 */
function proposedGlobs(found: FoundSkills): string[] {
  const wanted: string[] = [];
  const byGlob = new Map<string, OutsideSkill[]>();
  for (const skill of found.outside) byGlob.set(skill.glob, [...(byGlob.get(skill.glob) ?? []), skill]);
  for (const [glob, skills] of byGlob) {
    const real = skills.filter((s) => !s.placeholder);
    if (real.length === 0) continue;
    if (real.length === skills.length) wanted.push(glob);
    else wanted.push(...real.map((s) => s.dir));
  }
  return wanted;
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
  const byGlob = new Map<string, string[]>();
  for (const skill of skills) byGlob.set(skill.glob, [...(byGlob.get(skill.glob) ?? []), skill.name]);
  const where = [...byGlob]
    .map(([glob, names]) => {
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
      return `${glob} (${shown})`;
    })
    .join('; ');
  // The setting's globs that found something stay (a link's real folders may match none of them).
  const wanted = [...found.productiveGlobs, ...proposedGlobs(found)];
  const hint = skillsSettingHint(wanted);
  const count = skills.length;
  const check = iterateCommandLine('--dry-run', { ...setting, skills: wanted, mode: undefined });
  return (
    `${count} ${count === 1 ? 'skill is' : 'skills are'} outside the skills setting ` +
    `(${found.globs.join(', ')}) and not queued: ${where}${aside}. To include ${count === 1 ? 'it' : 'them'}, ` +
    `set ${hint.config} in skillclimb.config.json, or pass ${hint.flag} (\`${check}\`)`
  );
}
