import { describe, expect, it } from 'vitest';
import { addLine, CartStore, cartStorageKey, cartTotal, ordersStorageKey, parseCart, setQuantity } from './cart.ts';

const lamp = { objectID: '1', name: 'Lamp', slug: 'lamp', image: '/i.svg', price: 19.99 };
const desk = { objectID: '2', name: 'Desk', slug: 'desk', image: '/d.svg', price: 120 };

function memoryStorage() {
  const data = new Map<string, string>();
  return { data, getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value) };
}

describe('cart', () => {
  it('adds products, merges repeats and caps quantities', () => {
    let lines = addLine([], lamp, 1, 'q1');
    lines = addLine(lines, desk, 2);
    lines = addLine(lines, lamp, 2);
    expect(lines.map((line) => [line.objectID, line.quantity, line.queryID])).toEqual([['1', 3, 'q1'], ['2', 2, undefined]]);
    expect(addLine([], lamp, 500)[0].quantity).toBe(99);
    expect(cartTotal(lines)).toBe(299.97);
  });

  it('sets quantities, 0 removing the line', () => {
    const lines = addLine(addLine([], lamp), desk);
    expect(setQuantity(lines, '1', 4).find((line) => line.objectID === '1')?.quantity).toBe(4);
    expect(setQuantity(lines, '1', 0).map((line) => line.objectID)).toEqual(['2']);
  });

  it('ignores malformed stored carts', () => {
    expect(parseCart('not json')).toEqual([]);
    expect(parseCart(JSON.stringify([{ objectID: 1 }, { ...lamp, quantity: 2 }, { ...desk, quantity: -1 }]))).toEqual([{ ...lamp, quantity: 2 }]);
  });

  it('persists the cart and places orders locally', () => {
    const storage = memoryStorage();
    const store = new CartStore(storage);
    store.add(lamp, 2);
    expect(new CartStore(storage).getLines()).toEqual([{ ...lamp, quantity: 2 }]);
    const order = store.placeOrder('EUR', new Date('2025-01-02T03:04:05Z'));
    // 2 × 19.99 of goods, standard delivery (4.99) and 8 % tax (3.20).
    expect(order).toMatchObject({ subtotal: 39.98, shipping: 4.99, tax: 3.2, total: 48.17 });
    expect(store.getLines()).toEqual([]);
    expect(JSON.parse(storage.data.get(cartStorageKey)!)).toEqual([]);
    expect(JSON.parse(storage.data.get(ordersStorageKey)!)).toEqual([order]);
  });
});
