/**
 * The simulated pull requests of `npm run bench:review-quality`: a small TypeScript repository (`shelf`,
 * stock levels and orders in integer cents) and a pull request that adds reservations, discount codes and
 * an order desk — a real diff — with a hidden truth: which of its 15 defect slots hold their defective
 * variant. Each slot is one line with a correct and a defective text, a severity, and the finding a
 * reviewer writes when it sees it. A slot is PRESENT at a head when its defective line is in the file, so
 * the truth of any head is read from the files themselves, whoever edited them.
 *
 * Ten INVENTED findings are also catalogued: plausible claims about lines that are correct whatever the
 * slots hold (a reviewer's false findings). The repository text is in review-world-repo.mjs. Pure: no I/O.
 */

import { BASE_FILES, HEAD_TEMPLATES } from './review-world-repo.mjs';

/**
 * The defect slots: `good` and `bad` are whole lines (with their indentation), each occurring once in its
 * file whatever the other slots hold. `finding` is what a reviewer who sees the defect reports.
 */
export const SLOTS = [
  slot(
    'OVERSELL',
    'src/inventory.ts',
    'critical',
    '    if (available < quantity) {',
    '    if (available < 0) {',
    {
      title: 'reserve() lets an order take more than is available',
      detail:
        'reserve() only refuses when availability is already negative, so two orders can oversell a SKU.',
      minimum_fix: 'Refuse when `available < quantity`.',
    },
  ),
  slot(
    'QUANTITY_CHECK',
    'src/inventory.ts',
    'major',
    '    if (quantity <= 0 || !Number.isInteger(quantity)) {',
    '    if (!Number.isInteger(quantity)) {',
    {
      title: 'reserve() accepts zero and negative quantities',
      detail: 'A negative reservation lowers what orders hold and makes stock appear that does not exist.',
      minimum_fix: 'Refuse `quantity <= 0` as well as non-integers.',
    },
  ),
  slot(
    'AVAILABLE',
    'src/inventory.ts',
    'critical',
    '    return this.onHand(sku) - (this.reserved.get(sku) ?? 0);',
    '    return this.onHand(sku);',
    {
      title: 'available() ignores what other orders have reserved',
      detail:
        'Availability is stock on hand, so reservations never reduce it and every order can take all stock.',
      minimum_fix: 'Subtract the reserved quantity.',
    },
  ),
  slot(
    'RELEASE',
    'src/inventory.ts',
    'major',
    '    this.reserved.set(sku, Math.max(0, held - quantity));',
    '    this.reserved.set(sku, held + quantity);',
    {
      title: 'release() adds to the reservation instead of removing it',
      detail: 'Cancelling or rolling back increases what is held, so stock is locked forever.',
      minimum_fix: 'Subtract the quantity (not below zero).',
    },
  ),
  slot(
    'CODE_CASE',
    'src/discounts.ts',
    'minor',
    '    const found = this.codes.get(code.trim().toUpperCase());',
    '    const found = this.codes.get(code);',
    {
      title: 'find() matches discount codes case-sensitively',
      detail:
        'Codes are stored upper-cased, so `summer10` is not found although the README says case is ignored.',
      minimum_fix: 'Trim and upper-case the code before the lookup.',
    },
  ),
  slot(
    'EXPIRY',
    'src/discounts.ts',
    'major',
    '    if (found.expiresAt.getTime() <= now.getTime()) return undefined;',
    '    if (found.expiresAt.getTime() + 86_400_000 < now.getTime()) return undefined;',
    {
      title: 'Expired discount codes are accepted for a day',
      detail: 'find() adds a day to the expiry, so a code keeps working for 24 hours after it expired.',
      minimum_fix: 'Compare the expiry with `now` directly.',
    },
  ),
  slot(
    'MINIMUM',
    'src/discounts.ts',
    'major',
    '  if (subtotal < discount.minimumCents) return 0;',
    '  if (subtotal <= 0) return 0;',
    {
      title: 'The minimum order value of a discount is never checked',
      detail: 'discountCents() applies the discount to any positive subtotal, ignoring `minimumCents`.',
      minimum_fix: 'Return 0 when the subtotal is below `minimumCents`.',
    },
  ),
  slot(
    'PERCENT',
    'src/discounts.ts',
    'critical',
    '  return Math.floor((subtotal * discount.percentOff) / 100);',
    '  return Math.floor(subtotal * discount.percentOff);',
    {
      title: 'discountCents() multiplies by the percentage without dividing by 100',
      detail: 'A 10 % code takes ten times the subtotal off, so totals go negative.',
      minimum_fix: 'Divide by 100.',
    },
  ),
  slot(
    'EMPTY_ORDER',
    'src/orders.ts',
    'minor',
    "    if (lines.length === 0) throw new RangeError('an order needs at least one line');",
    "    if (lines.length < 0) throw new RangeError('an order needs at least one line');",
    {
      title: 'place() accepts an order with no lines',
      detail: 'The length check can never fire, so empty orders are placed with a shipping fee.',
      minimum_fix: 'Refuse an empty `lines` array.',
    },
  ),
  slot(
    'ROLLBACK',
    'src/orders.ts',
    'major',
    '      for (const line of reserved) this.inventory.release(line.sku, line.quantity);',
    '      for (const line of lines) this.inventory.release(line.sku, line.quantity);',
    {
      title: 'A failed order releases reservations it never made',
      detail:
        'The rollback releases every line, including those not reserved, freeing stock other orders hold.',
      minimum_fix: 'Release only the lines in `reserved`.',
    },
  ),
  slot(
    'SUBTOTAL',
    'src/orders.ts',
    'critical',
    '    const subtotal = sumCents(lines.map((line) => line.unitCents * line.quantity));',
    '    const subtotal = sumCents(lines.map((line) => line.unitCents));',
    {
      title: 'The subtotal ignores line quantities',
      detail: 'Each line is charged once whatever its quantity, so customers pay for one item of each.',
      minimum_fix: 'Multiply each unit price by its quantity.',
    },
  ),
  slot(
    'SHIPPING',
    'src/orders.ts',
    'minor',
    '    const shipping = subtotal - discount >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;',
    '    const shipping = subtotal >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;',
    {
      title: 'Free shipping is decided before the discount',
      detail: 'The README says orders ship free from $50 after discounts; the code uses the subtotal.',
      minimum_fix: 'Compare `subtotal - discount` with the threshold.',
    },
  ),
  slot(
    'DOUBLE_CANCEL',
    'src/orders.ts',
    'major',
    "    if (order.status === 'cancelled') return order;",
    '    if (order.lines.length === 0) return order;',
    {
      title: 'Cancelling an order twice releases its stock twice',
      detail:
        'cancel() does not check the status, so a second cancel releases reservations other orders hold.',
      minimum_fix: 'Return early when the order is already cancelled.',
    },
  ),
  slot(
    'UNKNOWN_CODE',
    'src/orders.ts',
    'minor',
    '    if (found === undefined) throw new RangeError(`unknown or expired discount code ${code}`);',
    '    if (found === undefined) return 0;',
    {
      title: 'An unknown or expired discount code is silently ignored',
      detail: 'The README says such a code is refused; discountFor() returns 0 instead.',
      minimum_fix: 'Throw a RangeError naming the code.',
    },
  ),
  slot(
    'SHIPPING_CLAIM',
    'README.md',
    'minor',
    '- Orders of $50 or more after discounts ship free; others pay $4.99.',
    '- Orders of $40 or more ship free; others pay $4.99.',
    {
      title: 'The README states the wrong free-shipping threshold',
      detail: 'The code ships free from $50 after discounts; the README says $40 before them.',
      minimum_fix: 'Say "$50 or more after discounts".',
    },
  ),
];

function slot(id, file, severity, good, bad, finding) {
  return { id, file, severity, good, bad, finding: { ...finding, severity, file } };
}

/** Invented findings: each cites a line that is correct whatever the slots hold. */
export const INVENTED = [
  invented(
    'ATOMIC',
    'src/inventory.ts',
    'major',
    '    this.reserved.set(sku, (this.reserved.get(sku) ?? 0) + quantity);',
    {
      title: 'reserve() is not atomic, so concurrent orders can oversell',
      detail: 'Two requests may read the same availability before either writes its reservation.',
      minimum_fix: 'Guard reserve() with a lock.',
    },
  ),
  invented('NEGATIVE_HOLD', 'src/inventory.ts', 'major', '    const held = this.reserved.get(sku) ?? 0;', {
    title: 'release() can drive a reservation below zero',
    detail: 'Releasing more than is held leaves a negative reservation.',
    minimum_fix: 'Clamp the reservation at zero.',
  }),
  invented('ERROR_SKU', 'src/inventory.ts', 'minor', "    this.name = 'OutOfStockError';", {
    title: 'OutOfStockError does not say which SKU ran out',
    detail: 'The error message carries only the quantities.',
    minimum_fix: 'Put the SKU in the message.',
  }),
  invented(
    'PERCENT_RANGE',
    'src/discounts.ts',
    'major',
    "    if (discount.percentOff < 1 || discount.percentOff > 100) throw new RangeError('percentOff: 1 to 100');",
    {
      title: 'percentOff is never validated, so a code can take more than the subtotal',
      detail: 'A code with percentOff 150 would make totals negative.',
      minimum_fix: 'Refuse percentOff outside 1 to 100 in add().',
    },
  ),
  invented(
    'UPPERCASE_STORE',
    'src/discounts.ts',
    'minor',
    '    this.codes.set(discount.code.toUpperCase(), discount);',
    {
      title: 'add() silently replaces an existing code',
      detail: 'Adding the same code twice overwrites the first without a warning.',
      minimum_fix: 'Refuse a duplicate code.',
    },
  ),
  invented('FLOAT_MONEY', 'src/orders.ts', 'major', '      totalCents: subtotal - discount + shipping,', {
    title: 'Order totals are computed in floating point',
    detail: 'Money arithmetic in floats loses cents on large orders.',
    minimum_fix: 'Compute totals in integer cents.',
  }),
  invented('CLOCK', 'src/orders.ts', 'minor', '    private readonly clock: () => Date = () => new Date(),', {
    title: 'Discount expiry depends on the wall clock and cannot be tested',
    detail: 'OrderDesk reads the current time directly.',
    minimum_fix: 'Inject the clock.',
  }),
  invented('ORDER_IDS', 'src/orders.ts', 'minor', '  private nextId = 1;', {
    title: 'Order ids restart at 1 and can collide',
    detail: 'Two desks hand out the same ids.',
    minimum_fix: 'Use a UUID for order ids.',
  }),
  invented('SHIPPING_CONST', 'src/orders.ts', 'minor', 'export const SHIPPING_CENTS = 499;', {
    title: 'The shipping fee is a magic number',
    detail: '499 appears without a name or a unit.',
    minimum_fix: 'Name the constant and state its unit.',
  }),
  invented('RESERVED_LEAK', 'src/orders.ts', 'major', '        reserved.push(line);', {
    title: 'A placed order never releases its reservations',
    detail: 'Nothing releases the stock a placed order holds, so inventory leaks with every order.',
    minimum_fix: 'Release reservations when the order ships.',
  }),
];

function invented(id, file, severity, anchor, finding) {
  return { id, file, severity, anchor, finding: { ...finding, severity, file } };
}

export const SLOT_BY_TITLE = new Map(SLOTS.map((s) => [s.finding.title, s]));
export const INVENTED_BY_TITLE = new Map(INVENTED.map((f) => [f.finding.title, f]));

/** The files of the base commit (`main`). */
export function baseFiles() {
  return { ...BASE_FILES };
}

/** The files the pull request changes or adds, with the slots in `defective` holding their bad line. */
export function headFiles(defective) {
  const bad = new Set(defective);
  const files = {};
  for (const [file, template] of Object.entries(HEAD_TEMPLATES)) {
    let text = template;
    for (const s of SLOTS.filter((x) => x.file === file))
      text = text.replace(`@@${s.id}@@`, bad.has(s.id) ? s.bad : s.good);
    files[file] = text;
  }
  return files;
}

/** The ids of the slots whose defective line is in the texts (`{path: text}`) — the truth of a head. */
export function presentSlots(texts) {
  return SLOTS.filter((s) => hasLine(texts[s.file], s.bad)).map((s) => s.id);
}

/** Whether `line` is a whole line of `text`, possibly with a trailing comment added after it. */
export function hasLine(text, line) {
  if (typeof text !== 'string') return false;
  return text.split('\n').some((l) => l === line || l.startsWith(`${line} //`));
}

/** The 1-based line of `text` that is `line` (or starts with it), or null. */
export function lineOf(text, line) {
  if (typeof text !== 'string') return null;
  const at = text.split('\n').findIndex((l) => l === line || l.startsWith(`${line} //`));
  return at === -1 ? null : at + 1;
}
