/**
 * The repository of `npm run bench:review-quality`'s pull requests (review-world.mjs holds their truth):
 * `shelf`, stock levels and prices in integer cents, on the base commit; the pull request's files with a
 * `@@SLOT@@` placeholder on each line a defect slot fills. Text only.
 */

const README_BASE = `# shelf

A small inventory service for a shop: stock levels per SKU, prices in integer cents.
`;

const README_HEAD = `# shelf

A small inventory service for a shop: stock levels per SKU, prices in integer cents.

## Orders

- \`OrderDesk.place(lines, code?)\` reserves stock for every line or for none: when one line cannot be
  reserved, the reservations already made for that order are released and the error is thrown.
- A discount code is matched whatever its case, is refused once expired, and applies only from its
  minimum order value; an unknown or expired code is refused, never ignored.
@@SHIPPING_CLAIM@@
- \`OrderDesk.cancel(order)\` releases the order's reservations once; cancelling twice changes nothing.
`;

const MONEY = `/** Prices are integer cents, never floating-point dollars. */
export type Cents = number;

export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return \`\${sign}$\${Math.floor(abs / 100)}.\${String(abs % 100).padStart(2, '0')}\`;
}

export function sumCents(values: readonly Cents[]): Cents {
  return values.reduce((total, value) => total + value, 0);
}
`;

const INVENTORY_BASE = `export class OutOfStockError extends Error {
  constructor(
    readonly sku: string,
    readonly available: number,
    readonly wanted: number,
  ) {
    super(\`\${sku}: \${wanted} wanted, \${available} available\`);
    this.name = 'OutOfStockError';
  }
}

export class Inventory {
  private readonly stock = new Map<string, number>();

  add(sku: string, quantity: number): void {
    if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(\`bad quantity \${quantity}\`);
    this.stock.set(sku, this.onHand(sku) + quantity);
  }

  onHand(sku: string): number {
    return this.stock.get(sku) ?? 0;
  }
}
`;

const INVENTORY_HEAD = `export class OutOfStockError extends Error {
  constructor(
    readonly sku: string,
    readonly available: number,
    readonly wanted: number,
  ) {
    super(\`\${sku}: \${wanted} wanted, \${available} available\`);
    this.name = 'OutOfStockError';
  }
}

export class Inventory {
  private readonly stock = new Map<string, number>();
  private readonly reserved = new Map<string, number>();

  add(sku: string, quantity: number): void {
    if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(\`bad quantity \${quantity}\`);
    this.stock.set(sku, this.onHand(sku) + quantity);
  }

  onHand(sku: string): number {
    return this.stock.get(sku) ?? 0;
  }

  /** What can still be reserved: stock on hand minus what orders hold. */
  available(sku: string): number {
@@AVAILABLE@@
  }

  reserve(sku: string, quantity: number): void {
@@QUANTITY_CHECK@@
      throw new RangeError(\`cannot reserve \${quantity} of \${sku}\`);
    }
    const available = this.available(sku);
@@OVERSELL@@
      throw new OutOfStockError(sku, available, quantity);
    }
    this.reserved.set(sku, (this.reserved.get(sku) ?? 0) + quantity);
  }

  release(sku: string, quantity: number): void {
    const held = this.reserved.get(sku) ?? 0;
@@RELEASE@@
  }
}
`;

const DISCOUNTS_HEAD = `import type { Cents } from './money.js';

export interface DiscountCode {
  code: string;
  /** 1 to 100. */
  percentOff: number;
  expiresAt: Date;
  minimumCents: Cents;
}

export class DiscountBook {
  private readonly codes = new Map<string, DiscountCode>();

  add(discount: DiscountCode): void {
    if (discount.percentOff < 1 || discount.percentOff > 100) throw new RangeError('percentOff: 1 to 100');
    this.codes.set(discount.code.toUpperCase(), discount);
  }

  find(code: string, now: Date): DiscountCode | undefined {
@@CODE_CASE@@
    if (found === undefined) return undefined;
@@EXPIRY@@
    return found;
  }
}

export function discountCents(subtotal: Cents, discount: DiscountCode): Cents {
@@MINIMUM@@
@@PERCENT@@
}
`;

const ORDERS_HEAD = `import { DiscountBook, discountCents } from './discounts.js';
import { Inventory } from './inventory.js';
import { sumCents, type Cents } from './money.js';

export interface OrderLine {
  sku: string;
  quantity: number;
  unitCents: Cents;
}

export interface Order {
  id: string;
  lines: OrderLine[];
  subtotalCents: Cents;
  discountCents: Cents;
  shippingCents: Cents;
  totalCents: Cents;
  status: 'placed' | 'cancelled';
}

export const SHIPPING_CENTS = 499;
export const FREE_SHIPPING_FROM_CENTS = 5000;

export class OrderDesk {
  private nextId = 1;

  constructor(
    private readonly inventory: Inventory,
    private readonly discounts: DiscountBook,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  place(lines: OrderLine[], code?: string): Order {
@@EMPTY_ORDER@@
    const reserved: OrderLine[] = [];
    try {
      for (const line of lines) {
        this.inventory.reserve(line.sku, line.quantity);
        reserved.push(line);
      }
    } catch (error) {
@@ROLLBACK@@
      throw error;
    }
@@SUBTOTAL@@
    const discount = code === undefined ? 0 : this.discountFor(code, subtotal);
@@SHIPPING@@
    return {
      id: \`order-\${this.nextId++}\`,
      lines,
      subtotalCents: subtotal,
      discountCents: discount,
      shippingCents: shipping,
      totalCents: subtotal - discount + shipping,
      status: 'placed',
    };
  }

  cancel(order: Order): Order {
@@DOUBLE_CANCEL@@
    for (const line of order.lines) this.inventory.release(line.sku, line.quantity);
    return { ...order, status: 'cancelled' };
  }

  private discountFor(code: string, subtotal: Cents): Cents {
    const found = this.discounts.find(code, this.clock());
@@UNKNOWN_CODE@@
    return discountCents(subtotal, found);
  }
}
`;

const PACKAGE_JSON = `{
  "name": "shelf",
  "version": "0.3.0",
  "private": true,
  "type": "module",
  "scripts": { "build": "tsc", "test": "vitest run" },
  "devDependencies": { "typescript": "^5.6.0", "vitest": "^3.0.0" }
}
`;

/** The files of the base commit (`main`). */
export const BASE_FILES = {
  'README.md': README_BASE,
  'package.json': PACKAGE_JSON,
  'src/money.ts': MONEY,
  'src/inventory.ts': INVENTORY_BASE,
};

/** The files the pull request changes or adds, each slot a `@@ID@@` line. */
export const HEAD_TEMPLATES = {
  'README.md': README_HEAD,
  'src/inventory.ts': INVENTORY_HEAD,
  'src/discounts.ts': DISCOUNTS_HEAD,
  'src/orders.ts': ORDERS_HEAD,
};
