/**
 * The cart and the mock checkout, kept in the browser's localStorage: no account, no server, no payment.
 * The pure functions (`addLine`, `setQuantity`, …) hold the rules; `CartStore` persists them and notifies
 * React through `useSyncExternalStore`.
 */
import type { Product } from '@vitrine/protocol';
import { orderSummary } from './shipping.ts';

export const cartStorageKey = 'vitrine.cart';
export const ordersStorageKey = 'vitrine.orders';
export const maxQuantity = 99;

export interface CartLine {
  objectID: string;
  name: string;
  slug: string;
  image: string;
  price: number;
  quantity: number;
  /** The search that led to the product, for the purchase event's attribution. */
  queryID?: string;
  /** The product ships free (the order's delivery cost depends on it). */
  freeShipping?: boolean;
}

export interface Order {
  id: string;
  placedAt: string;
  lines: CartLine[];
  /** Goods, delivery and tax as the order summary showed them; `total` is what the shopper pays. */
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
  currency: string;
}

function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return 1;
  return Math.min(maxQuantity, Math.max(0, Math.floor(quantity)));
}

/** Adds `quantity` of a product; a product already in the cart gets its quantity increased (capped at 99). */
export function addLine(
  lines: CartLine[],
  product: Pick<Product, 'objectID' | 'name' | 'slug' | 'image' | 'price'> & { free_shipping?: boolean },
  quantity = 1,
  queryID?: string,
): CartLine[] {
  const existing = lines.find((line) => line.objectID === product.objectID);
  if (existing) {
    return lines.map((line) =>
      line === existing
        ? { ...line, quantity: clampQuantity(line.quantity + quantity), queryID: queryID ?? line.queryID }
        : line,
    );
  }
  const line: CartLine = {
    objectID: product.objectID,
    name: product.name,
    slug: product.slug,
    image: product.image,
    price: product.price,
    quantity: Math.max(1, clampQuantity(quantity)),
  };
  if (product.free_shipping) line.freeShipping = true;
  if (queryID) line.queryID = queryID;
  return [...lines, line];
}

/** Sets a line's quantity; 0 removes the line. */
export function setQuantity(lines: CartLine[], objectID: string, quantity: number): CartLine[] {
  const next = clampQuantity(quantity);
  if (next === 0) return lines.filter((line) => line.objectID !== objectID);
  return lines.map((line) => (line.objectID === objectID ? { ...line, quantity: next } : line));
}

/** Sum of price × quantity, rounded to cents (floating point would otherwise show 59.970000000000006). */
export function cartTotal(lines: CartLine[]): number {
  return Math.round(lines.reduce((sum, line) => sum + line.price * line.quantity, 0) * 100) / 100;
}

export function cartCount(lines: CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** Reads stored lines, dropping anything malformed (storage is shopper-editable). */
export function parseCart(text: string | null): CartLine[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (line): line is CartLine =>
        typeof line === 'object' &&
        line !== null &&
        typeof line.objectID === 'string' &&
        typeof line.name === 'string' &&
        typeof line.price === 'number' &&
        Number.isFinite(line.price) &&
        Number.isInteger(line.quantity) &&
        line.quantity > 0 &&
        line.quantity <= maxQuantity,
    );
  } catch {
    return [];
  }
}

type Listener = () => void;

/** The persisted cart; one instance per page, shared by every component through `useCart`. */
export class CartStore {
  private lines: CartLine[];
  private readonly listeners = new Set<Listener>();

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined) {
    this.lines = parseCart(this.read(cartStorageKey));
  }

  private read(key: string): string | null {
    try {
      return this.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  private write(key: string, value: string): void {
    try {
      this.storage?.setItem(key, value);
    } catch {
      // A full or disabled storage keeps the cart for this page only.
    }
  }

  getLines = (): CartLine[] => this.lines;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(lines: CartLine[]): void {
    this.lines = lines;
    this.write(cartStorageKey, JSON.stringify(lines));
    for (const listener of this.listeners) listener();
  }

  add(product: Parameters<typeof addLine>[1], quantity = 1, queryID?: string): void {
    this.update(addLine(this.lines, product, quantity, queryID));
  }

  setQuantity(objectID: string, quantity: number): void {
    this.update(setQuantity(this.lines, objectID, quantity));
  }

  /** Places a mock order: stored locally with the lines and total, and the cart emptied. */
  placeOrder(currency: string, now = new Date()): Order {
    const { subtotal, shipping, tax, total } = orderSummary(this.lines);
    const order: Order = {
      id: `VT-${now.getTime().toString(36).toUpperCase()}`,
      placedAt: now.toISOString(),
      lines: this.lines,
      subtotal,
      shipping,
      tax,
      total,
      currency,
    };
    const previous = (() => {
      try {
        const parsed: unknown = JSON.parse(this.read(ordersStorageKey) ?? '[]');
        return Array.isArray(parsed) ? parsed : [];
      } catch {
        return [];
      }
    })();
    this.write(ordersStorageKey, JSON.stringify([...previous, order]));
    this.update([]);
    return order;
  }
}
