/**
 * What the records kept between nights share (docs/how-it-works.md § Baseline): a verdict as a file holds
 * it, and reading a file's JSON against a schema where anything else is no record. Pure.
 */
import { z } from 'zod';
import type { PairVerdict } from './noise.js';

/** A (scenario, assertion) verdict: all a record keeps of a check, never the model's text or reason. */
export type StoredVerdict = Pick<PairVerdict, 'scenarioId' | 'assertionId' | 'pass'>;

export const StoredVerdictSchema = z.object({ scenario: z.string(), assertion: z.int(), pass: z.boolean() });
export type StoredVerdictFile = z.infer<typeof StoredVerdictSchema>;

/** The verdicts a record keeps of a draw's pairs: the grader's reasons (model text) are left behind. */
export function storedVerdicts(pairs: readonly PairVerdict[]): StoredVerdict[] {
  return pairs.map(({ scenarioId, assertionId, pass }) => ({ scenarioId, assertionId, pass }));
}

export function verdictToFile(v: StoredVerdict): StoredVerdictFile {
  return { scenario: v.scenarioId, assertion: v.assertionId, pass: v.pass };
}

export function verdictFromFile(v: StoredVerdictFile): StoredVerdict {
  return { scenarioId: v.scenario, assertionId: v.assertion, pass: v.pass };
}

/** The file's text read against `schema`; undefined for anything else (not JSON, another shape or version). */
export function parseRecordFile<S extends z.ZodType>(text: string, schema: S): z.infer<S> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
