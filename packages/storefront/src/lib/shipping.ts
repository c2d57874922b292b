/**
 * The shop's delivery and tax rules (a demonstration shop: flat rates, the same for every address). Amounts are
 * in the shop's currency, rounded to cents.
 */

/** Standard delivery, unless every product ships free or the order reaches `freeShippingFrom`. */
export const standardShipping = 4.99;
export const freeShippingFrom = 50;
/** Sales tax added at checkout, as a fraction of the goods. */
export const taxRate = 0.08;

const cents = (value: number) => Math.round(value * 100) / 100;

export interface OrderSummary {
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
  /** Number of items (sum of quantities), the figure the cart badge shows. */
  items: number;
}

export function orderSummary(lines: ReadonlyArray<{ price: number; quantity: number; freeShipping?: boolean }>): OrderSummary {
  const subtotal = cents(lines.reduce((sum, line) => sum + line.price * line.quantity, 0));
  const items = lines.reduce((sum, line) => sum + line.quantity, 0);
  const shipsFree = lines.length === 0 || subtotal >= freeShippingFrom || lines.every((line) => line.freeShipping === true);
  const shipping = shipsFree ? 0 : standardShipping;
  const tax = cents(subtotal * taxRate);
  return { subtotal, shipping, tax, total: cents(subtotal + shipping + tax), items };
}

/** The product page's delivery line. */
export function deliveryText(product: { free_shipping?: boolean }, formatPrice: (value: number) => string): string {
  return product.free_shipping
    ? 'Free delivery in 2–4 working days'
    : `Delivery in 2–4 working days, ${formatPrice(standardShipping)} (free from ${formatPrice(freeShippingFrom)})`;
}

/** The stock line: records may carry a `stock` count; without one the product is shown as available. */
export function stockText(product: object): { text: string; available: boolean } {
  const stock = (product as { stock?: unknown }).stock;
  if (typeof stock !== 'number' || !Number.isFinite(stock)) return { text: 'In stock', available: true };
  if (stock <= 0) return { text: 'Out of stock', available: false };
  return { text: stock < 5 ? `Only ${stock} left in stock` : 'In stock', available: true };
}
