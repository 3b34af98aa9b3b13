/**
 * Where a project keeps its skills and where a run writes, as pure functions: the one module that knows
 * the layout (docs/how-it-works.md § The queue). A skill is found through the `skills` setting (globs of
 * skill folders, default `.claude/skills/*` and the reviewer skill's folder) and from then on carries its folder with it
 * (`SkillLocation.dir`, relative to the project): `<dir>/SKILL.md` and
 * `<dir>/evals/{evals.json, test_scenarios.json, required_sections.json, results.tsv}`. Results, run state
 * and branches are keyed by the skill's name — its folder's name, or `<plugin>.<name>` when folders of one
 * name repeat (qualifiedSkillNames); only this module turns a folder into a path.
 */
import path from 'node:path';
import { DEFAULT_REVIEWER_SKILL_DIR } from '../reviewer-skill.js';

export const SKILL_FILE = 'SKILL.md';
export const EVALS_DIR = 'evals';
export const EVALS_FILE = 'evals.json';
export const SCENARIOS_FILE = 'test_scenarios.json';
export const REQUIRED_SECTIONS_FILE = 'required_sections.json';
export const RESULTS_FILE = 'results.tsv';
/** The draw without the skill kept between nights, beside results.tsv (core/iterate/uplift-record.ts). */
export const UPLIFT_RECORD_FILE = 'uplift-without.json';
/** The baseline's draws kept between nights, beside results.tsv (core/iterate/baseline-draws-record.ts). */
export const BASELINE_DRAWS_FILE = 'baseline-draws.json';
/** Morning summaries and local park reports, relative to the project. */
export const RUNS_DIR = 'docs/skill-iterate-runs';
/** The basename prefix of the per-skill worktrees (`worktree_skill-iterate-<skill>-<epoch>`). */
export const WORKTREE_PREFIX = 'worktree_skill-iterate-';
/** The kill-switch file, at the project root (docs/how-it-works.md § Pre-flight): on disk for the CLI, on the base branch for the Action. */
export const KILL_SWITCH_FILE = '.skill-iterate-killswitch';

/**
 * The `skills` setting's default: the original skill-iterate's layout, and the reviewer's own skill in its
 * default folder (docs/how-it-works.md § The nightly engine improves the reviewer), which the nightly engine
 * improves like any other. A setting that is given replaces both: it names the reviewer's folder to keep it.
 */
export const DEFAULT_SKILLS_GLOBS: readonly string[] = ['.claude/skills/*', DEFAULT_REVIEWER_SKILL_DIR];

/**
 * Where public skill collections keep skills. A skill found here but not by the setting is never
 * queued: it is named in a hint that shows the setting to use. The plugin lists of
 * `.claude-plugin/marketplace.json` add their own (marketplaceSkillGlobs) after these, then come
 * DETECTED_NESTED_SKILLS_GLOBS and the catch-all `*`.
 */
export const DETECTED_SKILLS_GLOBS: readonly string[] = ['.claude/skills/*', 'skills/*'];
/** Tried after the marketplace's own globs (the author's words are more precise than these). */
export const DETECTED_NESTED_SKILLS_GLOBS: readonly string[] = ['*/skills/*', 'plugins/*/skills/*'];
/** The catch-all detection glob: a flat collection (`<name>/SKILL.md` at the root); tried last. */
export const ROOT_SKILLS_GLOB = '*';
/** Claude Code's plugin marketplace file, relative to the project. */
export const MARKETPLACE_FILE = '.claude-plugin/marketplace.json';

/**
 * Folder names public collections use for a skill to copy, not a skill to iterate (anthropics/skills'
 * `template/`): found and named, never proposed for the setting.
 */
export function isPlaceholderSkill(name: string): boolean {
  return /^_?(?:templates?|skill-templates?|template-skill|examples?|example-skill|samples?|skeleton|boilerplate|placeholder|starter)$/i.test(
    name,
  );
}

function relativeFolder(value: string): string | undefined {
  const trimmed = value
    .trim()
    .replace(/^(?:\.\/)+/, '')
    .replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '.') return '';
  return skillsGlobProblem(trimmed) === undefined ? trimmed : undefined;
}

/**
 * The skill folders a `.claude-plugin/marketplace.json` declares: for each plugin entry with a local
 * `source` (a path in this repository; remote sources are left alone), its `skills` list (paths relative
 * to the source) when it has one, else `<source>/skills/*`. Entries that are not such paths are ignored.
 */
export function marketplaceSkillGlobs(doc: unknown): string[] {
  const plugins = (doc as { plugins?: unknown } | null)?.plugins;
  if (!Array.isArray(plugins)) return [];
  const globs: string[] = [];
  const add = (glob: string) => {
    if (glob !== '' && skillsGlobProblem(glob) === undefined && !globs.includes(glob)) globs.push(glob);
  };
  for (const plugin of plugins as unknown[]) {
    const source = (plugin as { source?: unknown } | null)?.source;
    if (typeof source !== 'string') continue;
    const base = relativeFolder(source);
    if (base === undefined) continue;
    const join = (rel: string) => (base === '' ? rel : `${base}/${rel}`);
    const skills = (plugin as { skills?: unknown }).skills;
    if (Array.isArray(skills)) {
      for (const entry of skills) {
        const rel = typeof entry === 'string' ? relativeFolder(entry) : undefined;
        if (rel !== undefined && rel !== '') add(join(rel));
      }
    } else {
      add(join('skills/*'));
    }
  }
  return globs;
}

/** A skill and its folder: `dir` is relative to the project, `/`-separated (`.claude/skills/x`, `skills/x`). */
export interface SkillLocation {
  /** The skill's identity: its folder's name, or `<plugin>.<name>` when that name repeats (qualifiedSkillNames). */
  name: string;
  dir: string;
}

/** Why a skill is not queued, with what to do about it (docs/how-it-works.md § The queue). */
export interface SkillExclusion {
  skill: string;
  /** The skill's folder relative to the project, as found. */
  dir: string;
  /** One line: `no evals`, `symlink: .claude/skills -> /elsewhere leads outside the repository`, … */
  reason: string;
  /** The next step, when there is one: `skillclimb evals init <skill>`, a rename, … */
  next: string | undefined;
}

/** A skills glob's problem, or undefined when it can be used: relative, `/`-separated, no `..`, no `**`. */
export function skillsGlobProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'expected a folder glob such as "skills/*", got an empty string';
  if (glob.includes('\\')) return `"${glob}": use "/" between folders`;
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob))
    return `"${glob}": expected a path relative to the project`;
  const segments = glob.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    return `"${glob}": empty, "." and ".." folders are not allowed (the skills live inside the project)`;
  }
  if (segments.some((s) => s.includes('**')))
    return `"${glob}": "**" is not supported; name each level with "*"`;
  return undefined;
}

/** The glob's folder segments (a trailing `/` or `/SKILL.md` is dropped: a glob names skill folders). */
export function globSegments(glob: string): string[] {
  const segments = glob.replace(/\/+$/, '').split('/');
  if (segments[segments.length - 1] === SKILL_FILE && segments.length > 1) segments.pop();
  return segments;
}

/** Whether a segment has `*` or `?` (else it is a literal folder name). */
export function isWildcard(segment: string): boolean {
  return /[*?]/.test(segment);
}

/** Shell-style match of one folder name: `*` any run, `?` one character; a wildcard never matches a dot-name. */
export function matchesSegment(pattern: string, name: string): boolean {
  if (!isWildcard(pattern)) return pattern === name;
  if (name.startsWith('.') && !pattern.startsWith('.')) return false;
  const source = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 'u').test(name);
}

/** Whether a skills glob matches the folder `rel` (relative to the project, `/`-separated). */
export function globMatchesFolder(glob: string, rel: string): boolean {
  const segments = globSegments(glob);
  const parts = rel.split('/');
  return segments.length === parts.length && segments.every((s, i) => matchesSegment(s, parts[i]!));
}

/** The globs as one `--skills` value and as the config's `skills` array, for hints. */
export function skillsSettingHint(globs: readonly string[]): { flag: string; config: string } {
  return {
    flag: `--skills ${shellWord(globs.join(','))}`,
    config: `"skills": ${JSON.stringify(globs)}`,
  };
}

/**
 * The options a command was given that decide what a pasted command does, as the operator typed them:
 * which skills it sees (`--project`, `--skills`), how it scores (`--mode`, `--calibrate`), with which
 * models (`--model` and the role flags, `--structured-output`) and, for `iterate`, the night it runs (its
 * worktrees, trials, margin, keep rule, budgets, …). Every command a hint prints carries those the printed
 * command accepts, so the hint works when pasted in the same folder (docs/cli.md § Printed commands). A
 * setting that came from skillclimb.config.json, or a default, is not repeated: the pasted command reads
 * the same file and has the same defaults.
 */
export interface CommandSetting {
  /**
   * How the printed command starts: `skillclimb` when absent; the CLI passes how it was itself started
   * (`npx skillclimb`, `node '/abs/bin/skillclimb.js'`; docs/cli.md § Printed commands).
   */
  program?: string | undefined;
  /** `--project`, as typed (relative to where the command ran). */
  project?: string | undefined;
  /** `--skills`, as typed. */
  skills?: readonly string[] | undefined;
  /** `--mode`, when typed (only `iterate` and `score` have it). */
  mode?: string | undefined;
  /** `--calibrate`, when typed (only `iterate` has it). */
  calibrate?: boolean | undefined;
  /** The model flags, when typed. */
  models?: TypedModelFlags | undefined;
  /** `iterate`'s night settings, when typed (only printed `iterate` commands carry them). */
  night?: TypedNightFlags | undefined;
}

/**
 * `iterate`'s night settings, each the text typed on the command line (trimmed, as the flag's parser reads
 * it): `90m` stays `90m`, a relative `--worktree-home` stays relative (the pasted command runs in the same
 * folder, as with `--project`), `1.50` stays `1.50`. A value is absent when the flag was not typed.
 *
 * `--skip-list` is carried (its names joined by commas, as one flag): on a command that runs the discovered
 * queue (the `--mode structural` hint, the `--dry-run` check) it decides which skills run; beside
 * `--skill X` it changes nothing, since X is never in it there (a skip-listed skill is listed as
 * skip-listed, not offered a command; a pre-flight halt about X comes before the skip-list check, and the
 * pasted command then halts on the skip-list as the typed run would have next: docs/how-it-works.md
 * § Pre-flight, step 4). `--queue` is never carried: commander refuses it beside `--skill`, which every
 * command printed after a `--queue` run names, and the discovered-queue commands are printed only by runs
 * without it (docs/how-it-works.md § The queue).
 */
export interface TypedNightFlags {
  worktreeHome?: string | undefined;
  trials?: string | undefined;
  margin?: string | undefined;
  keepRule?: string | undefined;
  minGain?: string | undefined;
  perSkillBudget?: string | undefined;
  perSkillIterations?: string | undefined;
  concurrency?: string | undefined;
  maxCostUsd?: string | undefined;
  nightBudget?: string | undefined;
  killSwitchReadError?: string | undefined;
  skipList?: string | undefined;
}

/** The night settings' flags, in the order a printed `iterate` command carries them. */
const NIGHT_FLAGS: Array<[keyof TypedNightFlags, string]> = [
  ['worktreeHome', '--worktree-home'],
  ['perSkillBudget', '--per-skill-budget'],
  ['perSkillIterations', '--per-skill-iterations'],
  ['trials', '--trials'],
  ['margin', '--margin'],
  ['keepRule', '--keep-rule'],
  ['minGain', '--min-gain'],
  ['concurrency', '--concurrency'],
  ['maxCostUsd', '--max-cost-usd'],
  ['nightBudget', '--night-budget'],
  ['killSwitchReadError', '--kill-switch-read-error'],
  ['skipList', '--skip-list'],
];

/** `--model`, `--editor-model`, `--render-model`, `--grader-model`, `--author-model`, `--structured-output`, as typed. */
export interface TypedModelFlags {
  model?: string | undefined;
  editorModel?: string | undefined;
  renderModel?: string | undefined;
  graderModel?: string | undefined;
  authorModel?: string | undefined;
  structuredOutput?: string | undefined;
}

/** The offline provider's model id (src/llm/model-id.ts). */
const OFFLINE_MODEL = 'offline';

/** The model flags each printed command accepts (an unknown option would fail the pasted command). */
const MODEL_FLAGS: Record<'iterate' | 'evals init', Array<[keyof TypedModelFlags, string]>> = {
  iterate: [
    ['model', '--model'],
    ['editorModel', '--editor-model'],
    ['renderModel', '--render-model'],
    ['graderModel', '--grader-model'],
    ['structuredOutput', '--structured-output'],
  ],
  'evals init': [
    ['model', '--model'],
    ['authorModel', '--author-model'],
    ['editorModel', '--editor-model'],
    ['structuredOutput', '--structured-output'],
  ],
};

/** A word for a POSIX shell: as is when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * ` --project <p> --skills '<globs>'` (and ` --mode <m>`, `--calibrate` for iterate), the model flags, then
 * (for iterate) the night settings; '' when nothing was typed. `evals init` gets no night setting: it has
 * none of those flags, and commander would refuse the pasted command.
 */
export function settingFlags(setting: CommandSetting | undefined, command: 'iterate' | 'evals init'): string {
  if (!setting) return '';
  const parts: string[] = [];
  if (setting.project !== undefined) parts.push(`--project ${shellWord(setting.project)}`);
  if (setting.skills !== undefined && setting.skills.length > 0)
    parts.push(skillsSettingHint(setting.skills).flag);
  if (command === 'iterate' && setting.mode !== undefined) parts.push(`--mode ${shellWord(setting.mode)}`);
  if (command === 'iterate' && setting.calibrate === true) parts.push('--calibrate');
  // The offline provider cannot write eval files: `evals init --model offline` would only fail, so the
  // printed evals init leaves it out and finds its author model as a bare one does (a key in the env).
  const models = command === 'evals init' ? withoutOffline(setting.models) : setting.models;
  parts.push(...typedFlags(MODEL_FLAGS[command], models));
  if (command === 'iterate') parts.push(...typedFlags(NIGHT_FLAGS, setting.night));
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/** `<flag> <value>` for each flag of `table` whose value was typed, in the table's order. */
function typedFlags<K extends string>(
  table: ReadonlyArray<[K, string]>,
  values: Partial<Record<K, string | undefined>> | undefined,
): string[] {
  return table.flatMap(([key, flag]) => {
    const value = values?.[key];
    return value === undefined ? [] : [`${flag} ${shellWord(value)}`];
  });
}

/** The typed model flags without those that chose the offline provider. */
export function withoutOffline(models: TypedModelFlags | undefined): TypedModelFlags | undefined {
  if (models === undefined) return undefined;
  return Object.fromEntries(Object.entries(models).filter(([, value]) => value !== OFFLINE_MODEL));
}

/** Whether the typed model flags chose the offline provider (it scores structure only and writes no evals). */
export function typedOffline(setting: CommandSetting | undefined): boolean {
  const models = setting?.models;
  return models !== undefined && Object.values(models).includes(OFFLINE_MODEL);
}

/** How a printed command starts: the setting's program, else `skillclimb`. */
function programOf(setting: CommandSetting | undefined): string {
  return setting?.program ?? 'skillclimb';
}

/** `skillclimb iterate <args>` with the setting's flags: a printed command that works when pasted. */
export function iterateCommandLine(args: string, setting: CommandSetting | undefined): string {
  return `${programOf(setting)} iterate${args ? ` ${args}` : ''}${settingFlags(setting, 'iterate')}`;
}

/** `<dir>/SKILL.md`; `dir` may be project-relative (`/`-separated) or absolute. */
export function skillFileOf(skillDir: string): string {
  return path.join(skillDir, SKILL_FILE);
}

/** `<dir>/evals`. */
export function evalsDirOf(skillDir: string): string {
  return path.join(skillDir, EVALS_DIR);
}

/** `<project>/<dir>`, absolute. */
export function skillPathIn(project: string, skill: SkillLocation): string {
  return path.resolve(project, ...skill.dir.split('/'));
}

/** `<dir>` inside a worktree whose root is the repository root: `<prefix>/<dir>`, `/`-separated. */
export function skillRepoPath(skill: SkillLocation, prefix: string): string {
  return path.posix.normalize(path.posix.join(prefix, skill.dir));
}

/** `<project>/<dir>/evals/results.tsv`, absolute. */
export function resultsTsvPath(project: string, skill: SkillLocation): string {
  return path.join(skillPathIn(project, skill), EVALS_DIR, RESULTS_FILE);
}

/** `<project>/<dir>/evals/uplift-without.json`, absolute. */
export function upliftRecordPath(project: string, skill: SkillLocation): string {
  return path.join(skillPathIn(project, skill), EVALS_DIR, UPLIFT_RECORD_FILE);
}

/** `<project>/<dir>/evals/baseline-draws.json`, absolute. */
export function baselineDrawsPath(project: string, skill: SkillLocation): string {
  return path.join(skillPathIn(project, skill), EVALS_DIR, BASELINE_DRAWS_FILE);
}

/**
 * Whether a `/`-separated path is some skill's `…/evals/results.tsv` (the run's own audit trail) or its
 * `…/evals/uplift-without.json` or `…/evals/baseline-draws.json` (the run's own records).
 */
export function isRunStatePath(relPath: string): boolean {
  const parts = relPath.split('/');
  const name = parts[parts.length - 1];
  return (
    parts.length >= 3 &&
    (name === RESULTS_FILE || name === UPLIFT_RECORD_FILE || name === BASELINE_DRAWS_FILE) &&
    parts[parts.length - 2] === EVALS_DIR &&
    parts[parts.length - 3] !== ''
  );
}

/** `<dir>/evals/<file>`: how a message names one of a skill's eval files. */
export function evalsFileLabel(skill: SkillLocation, file: string): string {
  return path.posix.join(skill.dir, EVALS_DIR, file);
}

/** `<project>/docs/skill-iterate-runs`, absolute. */
export function runsDirOf(project: string): string {
  return path.resolve(project, ...RUNS_DIR.split('/'));
}

/** The per-skill branch: `skill-iterate/<skill>-<epoch>`. */
export function branchNameFor(skill: string, epoch: number | string): string {
  return `skill-iterate/${skill}-${epoch}`;
}

/** The per-skill worktree folder's name: `worktree_skill-iterate-<skill>-<epoch>`. */
export function worktreeFolderName(skill: string, epoch: number | string): string {
  return `${WORKTREE_PREFIX}${skill}-${epoch}`;
}

/**
 * A folder name that can be a skill: it becomes a branch (`skill-iterate/<name>-<epoch>`) and a folder,
 * so letters, digits, `.`, `_` and `-`, starting with a letter or digit, without `..`, and not ending in
 * `.` or `.lock` (which git refuses in a branch name).
 */
export function isValidSkillName(name: string): boolean {
  return (
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) &&
    !name.includes('..') &&
    !name.endsWith('.') &&
    !name.endsWith('.lock')
  );
}

/**
 * Folder names that say where skills are kept, not whose they are: an identity names the plugin
 * (`plugins/<plugin>/skills/<skill>`), never these, when another folder tells the skills apart.
 */
const CONTAINER_FOLDERS: ReadonlySet<string> = new Set([
  'skills',
  'plugins',
  '.claude',
  '.agents',
  '.skills',
]);

/**
 * The identities of skills whose folders share one name (docs/how-it-works.md § The queue): plugins
 * namespace their skills, so `plugins/a/skills/setup` and `plugins/b/skills/setup` are `a.setup` and
 * `b.setup`. Each gets the nearest folders above it that tell it from the others (container folders such
 * as `skills/` skipped when others do the job), joined with `.` — a character the Agent Skills
 * specification keeps out of names, so an identity never equals another skill's folder name. One whose
 * nearest folders tell nothing (`skills/setup` beside `preview/setup`) keeps the plain name. Undefined
 * when no such labels tell them apart (the caller leaves them out).
 */
export function qualifiedSkillNames(name: string, dirs: readonly string[]): Map<string, string> | undefined {
  const above = dirs.map((dir) => dir.split('/').slice(0, -1).reverse());
  let shared = 0;
  while (above.every((a) => a.length > shared && a[shared] === above[0]![shared])) shared++;
  const own = above.map((a) => a.slice(shared));
  const tries = [own.map((a) => a.filter((s) => !CONTAINER_FOLDERS.has(s))), own];
  for (const parts of tries) {
    const deepest = Math.max(0, ...parts.map((p) => p.length));
    for (let depth = 1; depth <= deepest; depth++) {
      const labels = parts.map((p) => p.slice(0, depth).reverse().join('.'));
      if (new Set(labels).size === labels.length) {
        return new Map(dirs.map((dir, i) => [dir, labels[i] ? `${labels[i]}.${name}` : name]));
      }
    }
  }
  return undefined;
}

/** The skill's folder name (`setup` for `plugins/a/skills/setup`): the name its SKILL.md front matter carries. */
export function folderNameOf(skill: SkillLocation): string {
  return skill.dir.slice(skill.dir.lastIndexOf('/') + 1);
}

/** The next step for a skill without usable eval files, with the setting's flags (see CommandSetting). */
export function evalsInitCommand(skill: string, flags = '', setting?: CommandSetting): string {
  return `${programOf(setting)} evals init ${skill}${flags ? ` ${flags}` : ''}${settingFlags(setting, 'evals init')}`;
}
