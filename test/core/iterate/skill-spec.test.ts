import { describe, expect, it } from 'vitest';
import { editRefusal } from '../../../src/core/iterate/edit-refusal.js';
import {
  formatViolation,
  introducedViolations,
  specViolations,
} from '../../../src/core/iterate/skill-spec.js';

const skill = (front: string[], body = '# PDF\n\nUse pdfplumber to read the text.\n') =>
  ['---', ...front, '---', body].join('\n');

const rules = (text: string, folder = 'pdf-processing') =>
  specViolations(text, folder).map((v) => `${v.field}/${v.rule}`);

describe('specViolations: the Agent Skills front-matter rules', () => {
  it('passes the specification’s own full example', () => {
    const text = skill([
      'name: pdf-processing',
      'description: >',
      '  Extract text and tables from PDF files, fill PDF forms,',
      '  and merge multiple PDFs. Use when handling PDFs.',
      'license: Apache-2.0',
      'compatibility: Requires Python 3.11+ and pdfplumber',
      'metadata:',
      '  author: example-org',
      '  version: "1.0"',
      'allowed-tools: Bash(python3:*) Read',
    ]);
    expect(specViolations(text, 'pdf-processing')).toEqual([]);
  });

  it('names each broken name rule: case, hyphens, length, the folder', () => {
    expect(rules(skill(['name: PDF-Processing', 'description: Reads PDFs.']))).toEqual([
      'name/characters',
      'name/folder',
    ]);
    expect(rules(skill(['name: pdf--processing', 'description: Reads PDFs.']), 'pdf--processing')).toEqual([
      'name/hyphens',
    ]);
    expect(rules(skill(['name: -pdf', 'description: Reads PDFs.']), '-pdf')).toEqual(['name/hyphens']);
    expect(rules(skill(['name: pdf_processing', 'description: x']), 'pdf_processing')).toEqual([
      'name/characters',
    ]);
    const long = 'a'.repeat(65);
    expect(rules(skill([`name: ${long}`, 'description: x']), long)).toEqual(['name/too-long']);
    expect(rules(skill(["name: 'pdf-processing'", 'description: "Reads PDFs."']))).toEqual([]);
  });

  it('checks the description and compatibility lengths, counting characters', () => {
    const at = 'é'.repeat(1024);
    expect(rules(skill(['name: pdf-processing', `description: ${at}`]))).toEqual([]);
    const over = specViolations(skill(['name: pdf-processing', `description: ${at}x`]), 'pdf-processing');
    expect(over).toEqual([
      { field: 'description', rule: 'too-long', detail: 'has 1025 characters; at most 1024' },
    ]);
    expect(rules(skill(['name: pdf-processing', 'description: ""']))).toEqual(['description/missing']);
    expect(rules(skill(['name: pdf-processing']))).toEqual(['description/missing']);
    const compat = `compatibility: ${'x'.repeat(501)}`;
    expect(rules(skill(['name: pdf-processing', 'description: Reads.', compat]))).toEqual([
      'compatibility/too-long',
    ]);
  });

  it('reads a folded description over several lines as one string', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `  line ${i} of a long description that goes on`);
    const text = skill(['name: pdf-processing', 'description: >-', ...lines]);
    expect(rules(text)).toEqual(['description/too-long']);
  });

  it('names unknown fields with their line, and keeps metadata as the place for them', () => {
    const text = skill(['name: pdf-processing', 'description: Reads PDFs.', 'version: 2', 'author: me']);
    const found = specViolations(text, 'pdf-processing');
    expect(found.map((v) => v.field)).toEqual(['version', 'author']);
    expect(formatViolation('skills/pdf-processing/SKILL.md', found[0]!)).toBe(
      'skills/pdf-processing/SKILL.md: version: not a field of the specification (line 4; it knows name, ' +
        'description, license, compatibility, metadata, allowed-tools; put your own under metadata)',
    );
  });

  it('requires front matter, closed', () => {
    expect(rules('# PDF\n\nUse it.\n')).toEqual(['frontmatter/no-frontmatter']);
    expect(rules('---\nname: pdf-processing\n# PDF\n')).toEqual(['frontmatter/unclosed-frontmatter']);
  });

  it('counts a SKILL.md over 500 lines', () => {
    // Four lines of front matter and 496 of body: 500 lines.
    const body = Array.from({ length: 496 }, (_, i) => `Line ${i}.`).join('\n');
    expect(rules(skill(['name: pdf-processing', 'description: Reads.'], body))).toEqual([]);
    expect(rules(skill(['name: pdf-processing', 'description: Reads.'], `${body}\nOne more.`))).toEqual([
      'lines/too-many-lines',
    ]);
  });
});

describe('introducedViolations and the edit refusal', () => {
  const good = skill(['name: pdf-processing', 'description: Reads PDFs.']);

  it('is only what the edit adds: a violation the skill already had is not held against the edit', () => {
    const before = specViolations(skill(['name: PDF', 'description: Reads PDFs.']), 'pdf-processing');
    const after = specViolations(
      skill(['name: PDF', 'description: Reads PDFs.', 'tags: x']),
      'pdf-processing',
    );
    expect(introducedViolations(before, after).map((v) => v.field)).toEqual(['tags']);
  });

  it('refuses an edit that breaks the name rule, naming the file and the field', () => {
    const refusal = editRefusal({
      before: good,
      after: good.replace('name: pdf-processing', 'name: PDF Processing'),
      baseline: good,
      folder: 'pdf-processing',
      file: 'skills/pdf-processing/SKILL.md',
    });
    expect(refusal).toBe(
      'breaks the Agent Skills specification: skills/pdf-processing/SKILL.md: name: "PDF Processing" may hold ' +
        'only lowercase letters, digits and hyphens; skills/pdf-processing/SKILL.md: name: "PDF Processing" is ' +
        'not the skill\'s folder name "pdf-processing"',
    );
    // The same edit on a skill whose name was already wrong adds nothing new: not refused for it.
    const wrong = good.replace('name: pdf-processing', 'name: PDF');
    expect(
      editRefusal({
        before: wrong,
        after: wrong.replace('name: PDF', 'name: PDF Processing'),
        baseline: wrong,
        folder: 'pdf-processing',
        file: 'SKILL.md',
      }),
    ).toBeUndefined();
  });
});
