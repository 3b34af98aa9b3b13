/**
 * The sink's redaction of hidden blocks (src/app/github-client.ts; issue 27 item 2): each block is decoded,
 * redacted and encoded again before the plain-text pass, which runs only between the blocks, so a secret
 * at any of the three base64 offsets leaves a block that still decodes and holds no form of it.
 */
import { describe, expect, it } from 'vitest';
import { SecretSet } from '../../src/app/github-client.js';
import { composeStickyBody, decodeStateBlock } from '../../src/github/review/sticky-comment.js';
import { parseWeaknessMarker, weaknessMarker } from '../../src/github/review/review-body.js';

/** 30 characters: its base64 form has no padding, so it shows inside longer base64 at offset 0. */
const KEY = 'azure7odd7shaped7gateway7key42';

function forms(secret: string): string[] {
  const out = [secret, encodeURIComponent(secret)];
  for (const offset of [0, 1, 2]) {
    out.push(
      Buffer.from(`${'x'.repeat(offset)}${secret}`)
        .toString('base64')
        .slice(offset === 0 ? 0 : 4, -4),
    );
  }
  return out;
}

describe('hidden blocks at the sink', () => {
  it.each([0, 1, 2, 3, 4, 5])(
    'a state whose weakness holds the key %i bytes further in still decodes, with the key redacted in every form',
    (shift) => {
      const secrets = new SecretSet([KEY]);
      const state = { rounds: [{ weaknesses: [`${'p'.repeat(shift)}leaks ${KEY} here`] }], memory: `${KEY}` };
      const body = composeStickyBody(`## review-loop\n\nTop weakness: leaks ${KEY}`, state);
      const encoded = body.split('\n').at(-1)!;
      // the case the old order broke: the key's own base64 form appears inside the block
      const inside = forms(KEY)
        .slice(2)
        .some((form) => encoded.includes(form));
      expect(inside).toBe(true);
      const clean = secrets.redact(body);
      const decoded = decodeStateBlock(clean) as typeof state;
      expect(decoded).toEqual({
        rounds: [{ weaknesses: [`${'p'.repeat(shift)}leaks [redacted] here`] }],
        memory: '[redacted]',
      });
      expect(forms(KEY).filter((form) => clean.includes(form))).toEqual([]);
      expect(clean).toContain('Top weakness: leaks [redacted]');
    },
  );

  it('an inline finding’s key (`r=… n=… k=…`) is redacted decoded too, and still parses', () => {
    const secrets = new SecretSet([KEY]);
    const marker = weaknessMarker(
      2,
      { title: `half() prints ${KEY}`, path: 'src/calc.ts', line: 6 } as never,
      1,
    );
    const clean = secrets.redact(`${marker}\n**half() prints ${KEY}**`);
    expect(parseWeaknessMarker(clean)).toMatchObject({
      round: 2,
      rank: 1,
      title: 'half() prints [redacted]',
    });
    expect(forms(KEY).filter((form) => clean.includes(form))).toEqual([]);
  });

  it('a block that is not base64 JSON gets the plain-text pass (its base64 form of the key goes)', () => {
    const secrets = new SecretSet([KEY]);
    const base64 = Buffer.from(KEY).toString('base64');
    const clean = secrets.redact(`<!-- skillclimb:review-loop-receipt AAAA${base64}AAAA -->`);
    expect(clean).not.toContain(base64);
  });
});
