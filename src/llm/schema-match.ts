/**
 * Whether a value has the SHAPE of one of our JSON schemas (the edit proposal, the grader's closed
 * `verdicts` object, the health check): enough to pick the real answer among several JSON objects in a
 * text-mode reply. Objects and arrays are checked (required keys, no extra keys where the schema closes
 * the object); primitive leaves are not, since the port's schemas accept e.g. a verdict of "yes" that
 * the engine repairs. Keywords our schemas do not use are ignored.
 */
import type { JSONSchema7 } from 'ai';

type JSONSchema7Definition = JSONSchema7 | boolean;

function typeMatches(value: unknown, type: JSONSchema7['type']): boolean {
  if (type === undefined) return true;
  if (Array.isArray(type)) return type.some((t) => typeMatches(value, t));
  switch (type) {
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

export function matchesSchema(value: unknown, schema: JSONSchema7Definition): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!typeMatches(value, schema.type)) return false;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  const record = value as Record<string, unknown>;
  for (const key of schema.required ?? []) if (!(key in record)) return false;
  const properties = schema.properties ?? {};
  for (const [key, child] of Object.entries(record)) {
    const sub = properties[key];
    if (sub === undefined) {
      if (schema.additionalProperties === false) return false;
      continue;
    }
    if (!matchesSchema(child, sub)) return false;
  }
  return true;
}
