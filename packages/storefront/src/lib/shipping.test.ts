import { describe, expect, it } from 'vitest';
import { freeShippingFrom, orderSummary, standardShipping, stockText } from './shipping.ts';

describe('order summary', () => {
  it('adds delivery and tax to the goods, in cents', () => {
    const summary = orderSummary([{ price: 19.99, quantity: 2 }]);
    expect(summary).toEqual({ subtotal: 39.98, shipping: standardShipping, tax: 3.2, total: 48.17, items: 2 });
  });

  it('delivers free from the threshold, or when every product ships free', () => {
    expect(orderSummary([{ price: freeShippingFrom, quantity: 1 }]).shipping).toBe(0);
    expect(orderSummary([{ price: 5, quantity: 1, freeShipping: true }]).shipping).toBe(0);
    expect(orderSummary([{ price: 5, quantity: 1, freeShipping: true }, { price: 5, quantity: 1 }]).shipping).toBe(standardShipping);
    expect(orderSummary([])).toEqual({ subtotal: 0, shipping: 0, tax: 0, total: 0, items: 0 });
  });

  it('reads stock counts when records have them', () => {
    expect(stockText({})).toEqual({ text: 'In stock', available: true });
    expect(stockText({ stock: 0 })).toEqual({ text: 'Out of stock', available: false });
    expect(stockText({ stock: 3 }).text).toBe('Only 3 left in stock');
  });
});
