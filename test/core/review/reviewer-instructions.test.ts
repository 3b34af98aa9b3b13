/** The reviewer's instructions (issue 31 item 1): a skill's body, its bounds, and what the record says. */
import { describe, expect, it } from 'vitest';
import {
  MAX_REVIEWER_SKILL_BYTES,
  instructionsFrom,
  instructionsSentence,
  reviewerSkillFile,
  skillBody,
} from '../../../src/core/review/reviewer-instructions.js';
import { buildReviewPrompt, type ChangeMaterial } from '../../../src/core/review/prompts.js';

const WHERE = { path: '.github/skills/review-loop-reviewer/SKILL.md', commit: 'abc1234def', ref: 'main' };

describe('a reviewer skill read from the default branch', () => {
  it('uses the body without the front matter, and names the file and the commit', () => {
    const text = '---\nname: review-loop-reviewer\ndescription: d\n---\n\nLook for missing tests.\n';
    const instructions = instructionsFrom(
      { kind: 'file', text, bytes: text.length, truncated: false },
      WHERE,
    );
    expect(instructions).toEqual({
      source: 'skill',
      path: WHERE.path,
      commit: WHERE.commit,
      text: 'Look for missing tests.',
    });
    expect(instructionsSentence(instructions)).toBe(
      "Reviewed with the repository's reviewer skill .github/skills/review-loop-reviewer/SKILL.md (commit abc1234).",
    );
  });

  it('cuts an oversized file at its last whole line and says so', () => {
    const text = `---\nname: x\n---\n${'Check the error paths.\n'.repeat(2000)}`;
    const cut = text.slice(0, MAX_REVIEWER_SKILL_BYTES);
    const instructions = instructionsFrom(
      { kind: 'file', text: cut, bytes: text.length, truncated: true },
      WHERE,
    );
    expect(instructions.source).toBe('skill');
    const body = instructions.source === 'skill' ? instructions.text : '';
    expect(body.endsWith('Check the error paths.')).toBe(true);
    expect(instructionsSentence(instructions)).toContain(
      `, cut to its first 20,000 bytes of ${text.length.toLocaleString('en-US')}.`,
    );
  });

  it('falls back to the built-in instructions, saying why, when the file cannot be used', () => {
    expect(instructionsSentence(instructionsFrom({ kind: 'missing' }, WHERE))).toBe(
      'Reviewed with the built-in instructions.',
    );
    expect(instructionsSentence(instructionsFrom({ kind: 'unreadable', detail: 'HTTP 500' }, WHERE))).toBe(
      'Reviewed with the built-in instructions: .github/skills/review-loop-reviewer/SKILL.md on main could ' +
        'not be read (HTTP 500).',
    );
    expect(
      instructionsSentence(instructionsFrom({ kind: 'not-a-file', what: 'a symbolic link' }, WHERE)),
    ).toContain('is a symbolic link, not a file.');
    const empty = '---\nname: x\ndescription: only front matter\n---\n\n';
    expect(
      instructionsSentence(
        instructionsFrom({ kind: 'file', text: empty, bytes: 9, truncated: false }, WHERE),
      ),
    ).toContain('has no instructions after its front matter');
    expect(skillBody('---\nname: x\nnever closed\n')).toBe('');
    expect(skillBody('No front matter at all.\n')).toBe('No front matter at all.');
  });

  it('takes a folder inside the repository only', () => {
    expect(reviewerSkillFile('./docs/reviewer/')).toBe('docs/reviewer/SKILL.md');
    for (const bad of ['', '/etc', '../x', 'a/../../b', 'a//b', 'a\\b'])
      expect(reviewerSkillFile(bad)).toBeUndefined();
  });
});

describe('the review prompt with a reviewer skill', () => {
  const change: ChangeMaterial = {
    claims: { source: 'README.md', text: 'It adds.' },
    range: 'aaaaaaa..bbbbbbb',
    diff: '+x',
    changedFiles: ['x.ts'],
    files: { files: [], omitted: [] },
  };
  const input = {
    round: 1,
    maxRounds: 4,
    preset: 'code' as const,
    difficulty: 'hard' as const,
    change,
    sinceLast: undefined,
    memory: '',
    marker: 'm1',
  };

  it('puts the skill in place of the built-in asks and scope limits; the system prompt and the scale stay', () => {
    const builtIn = buildReviewPrompt(input);
    const skilled = buildReviewPrompt({ ...input, instructions: 'Look for missing tests.' });
    expect(skilled.system).toBe(builtIn.system);
    expect(builtIn.user).toContain('Please act as a senior software engineer');
    expect(skilled.user).not.toContain('Please act as a senior software engineer');
    expect(skilled.user).not.toContain('=== SCOPE LIMITS');
    expect(skilled.user).toContain('Look for missing tests.');
    expect(skilled.user).toContain('Actively look for omissions'); // difficulty's depth is the engine's
    expect(skilled.user.trimEnd()).toMatch(
      /Say plainly when something is correct\. Do not manufacture findings\.$/,
    );
  });
});
