/**
 * The draw without the skill, kept from one night to the next (docs/how-it-works.md § Baseline, § Decisions
 * under noise, "Uplift"): it depends on the scenarios and assertions, the placeholder, the prompts and the
 * render and grader models, never on SKILL.md, so a night whose key matches the stored one reuses its
 * verdicts instead of rendering and grading every scenario again. Pure: the key, the record's format and
 * its reading. Only (scenario, assertion, pass) verdicts are kept: no model text, no reason, no secret.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SkillEvals } from './evals.js';
import { credentialFreeUrl } from '../providers.js';
import { buildGraderPrompt } from './grader-prompt.js';
import { buildRenderPrompt } from './render-prompt.js';
import {
  parseRecordFile,
  StoredVerdictSchema,
  verdictFromFile,
  verdictToFile,
  type StoredVerdict,
} from './stored-verdicts.js';

/**
 * Bump when what a draw without the skill decides changes in code rather than in the prompts hashed below:
 * how a pair is decided (vacuous pairs, `check` assertions, repairs, the vote), or the record's meaning.
 */
export const UPLIFT_KEY_VERSION = 1;

/** The draw without the skill as a night stored it. */
export interface UpliftWithoutRecord {
  /** sha256 of everything the draw depends on (upliftKeyOf). */
  key: string;
  /** When it was drawn (ISO 8601). */
  drawnAt: string;
  /** Its decided verdicts, one per (scenario, assertion) pair a render can fail. */
  pairs: StoredVerdict[];
}

const RecordSchema = z.object({
  version: z.literal(UPLIFT_KEY_VERSION),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  drawn_at: z.iso.datetime({ offset: true }),
  pairs: z.array(StoredVerdictSchema).min(1),
});

/** JSON with object keys sorted, so the key does not depend on the order a file lists its fields in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/**
 * What a draw without the skill depends on: the evals as loaded (the scenarios drawn and every assertion),
 * the placeholder, the render prompt each scenario gets and the grader's framing of it (so a change of the
 * prompts changes the key without a bump), the render and grader models (`provider:model`) and the servers
 * they are called at (the base URLs without credentials: the same model id behind another server is
 * another model), and UPLIFT_KEY_VERSION. The baseline's stored draws (baseline-draws-record.ts) add to it.
 */
export function upliftKeyMaterial(input: {
  evals: SkillEvals;
  placeholder: string;
  renderModelId: string;
  graderModelId: string | undefined;
  renderEndpoint: string | undefined;
  graderEndpoint: string | undefined;
}): Record<string, unknown> {
  const { evals, placeholder } = input;
  const endpoint = (url: string | undefined) => (url === undefined ? null : credentialFreeUrl(url));
  return {
    version: UPLIFT_KEY_VERSION,
    placeholder,
    renderModel: input.renderModelId,
    graderModel: input.graderModelId ?? null,
    renderEndpoint: endpoint(input.renderEndpoint),
    graderEndpoint: endpoint(input.graderEndpoint),
    format: evals.format ?? 'original',
    assertions: evals.evals,
    scenarios: evals.scenarios,
    renderPrompts: evals.scenarios.map((s) => buildRenderPrompt(placeholder, s)),
    graderFraming: evals.scenarios.map((s) =>
      buildGraderPrompt({ scenario: s, output: '', assertions: [] }, 'MARKER'),
    ),
  };
}

/** sha256 of key material, its object keys sorted. */
export function hashKeyMaterial(material: unknown): string {
  return createHash('sha256').update(canonical(material), 'utf8').digest('hex');
}

/** The key of a draw without the skill: sha256 of upliftKeyMaterial. */
export function upliftKeyOf(input: Parameters<typeof upliftKeyMaterial>[0]): string {
  return hashKeyMaterial(upliftKeyMaterial(input));
}

/** The record's file text (`uplift-without.json`). */
export function formatUpliftRecord(record: UpliftWithoutRecord): string {
  const file: z.input<typeof RecordSchema> = {
    version: UPLIFT_KEY_VERSION,
    key: record.key,
    drawn_at: record.drawnAt,
    pairs: record.pairs.map(verdictToFile),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The record in a file's text; undefined for anything else (not JSON, another shape, another version). */
export function parseUpliftRecord(text: string): UpliftWithoutRecord | undefined {
  const data = parseRecordFile(text, RecordSchema);
  if (data === undefined) return undefined;
  return { key: data.key, drawnAt: data.drawn_at, pairs: data.pairs.map(verdictFromFile) };
}
