/**
 * The dry run and `doctor` list each rule of the Agent Skills specification a found SKILL.md breaks, with
 * its file and field (issue 29 item 2), on a collection shaped like the ones the issue tried: skills under
 * `skills/`, one with an upper-case name that is not its folder's, one with an unknown field and a
 * description over 1,024 characters, one without front matter. Nothing is stopped by them. Git is real.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { releaseNotesSkill } from '../helpers/authored-evals.js';
import { captureIo, git, makeTempDir, removeTempDirs } from '../helpers/skill-project.js';

afterEach(removeTempDirs);

async function collection(): Promise<string> {
  const repo = await makeTempDir();
  const skills: Record<string, string> = {
    'release-notes': releaseNotesSkill('release-notes'),
    'pdf-tools': releaseNotesSkill('PDF_Tools'),
    changelog: releaseNotesSkill('changelog')
      .replace(/^description: .*$/m, `description: ${'Writes the changelog. '.repeat(47).trim()}`)
      .replace('---\n#', 'tags: [docs]\n---\n#'),
    notes: '# Notes\n\nWrite the notes of the meeting as a list of decisions.\n',
  };
  for (const [dir, text] of Object.entries(skills)) {
    await mkdir(path.join(repo, 'skills', dir), { recursive: true });
    await writeFile(path.join(repo, 'skills', dir, 'SKILL.md'), text);
  }
  await writeFile(path.join(repo, 'skillclimb.config.json'), JSON.stringify({ skills: ['skills/*'] }));
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'skills');
  return repo;
}

async function cli(argv: string[], cwd: string) {
  const io = captureIo(cwd, new Date('2026-06-01T02:00:00Z'));
  const code = await main(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

const EXPECTED = [
  'skills/changelog/SKILL.md: description: has 1033 characters; at most 1024',
  'skills/changelog/SKILL.md: tags: not a field of the specification (line 4; it knows name, description, ' +
    'license, compatibility, metadata, allowed-tools; put your own under metadata)',
  'skills/notes/SKILL.md: frontmatter: none: a SKILL.md starts with a `---` line, the name and description, ' +
    'and a closing `---`',
  'skills/pdf-tools/SKILL.md: name: "PDF_Tools" may hold only lowercase letters, digits and hyphens',
  'skills/pdf-tools/SKILL.md: name: "PDF_Tools" is not the skill\'s folder name "pdf-tools"',
];

describe('the Agent Skills rules a collection breaks', () => {
  it('are listed by the dry run, each naming its file and field; the skills still run', async () => {
    const repo = await collection();
    const dry = await cli(['iterate', '--dry-run', '--mode', 'structural'], repo);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      `Agent Skills specification (the skills still run):\n${EXPECTED.map((l) => `  ${l}`).join('\n')}\n`,
    );
    expect(dry.stdout).toMatch(/Resolved queue \(4 skills\)/);
    const json = await cli(['iterate', '--dry-run', '--mode', 'structural', '--json'], repo);
    expect(JSON.parse(json.stdout).specViolations).toEqual(EXPECTED);
  });

  it('are listed by doctor after the models, without changing its exit code', async () => {
    const repo = await collection();
    const doctor = await cli(['doctor'], repo);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain('offline for every role');
    expect(doctor.stdout).toContain(
      'skills: 4 found with skills/*; 5 rules of the Agent Skills specification broken:\n' +
        `${EXPECTED.map((l) => `  ${l}`).join('\n')}\n`,
    );
  });

  it('doctor says so when every SKILL.md follows them', async () => {
    const repo = await collection();
    for (const dir of ['pdf-tools', 'changelog', 'notes']) {
      await writeFile(path.join(repo, 'skills', dir, 'SKILL.md'), releaseNotesSkill(dir));
    }
    const doctor = await cli(['doctor'], repo);
    expect(doctor.stdout).toContain(
      'skills: 4 found with skills/*; every SKILL.md follows the Agent Skills specification',
    );
  });
});
