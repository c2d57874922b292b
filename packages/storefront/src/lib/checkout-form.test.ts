import { describe, expect, it } from 'vitest';
import { validateCheckout } from './checkout-form.ts';

const valid = { name: 'Ada Shopper', email: 'ada@example.test', address: '1 Main St', city: 'Springfield', postcode: '12345' };

describe('checkout validation', () => {
  it('accepts a complete form', () => {
    expect(validateCheckout(valid)).toEqual({});
  });

  it('names each missing field and malformed email or postcode', () => {
    expect(validateCheckout({ ...valid, name: ' ', city: '' })).toEqual({ name: 'Enter your full name.', city: 'Enter your city.' });
    expect(validateCheckout({ ...valid, email: 'ada@' }).email).toBe('Enter an email address like name@example.com.');
    expect(validateCheckout({ ...valid, postcode: '#!' }).postcode).toBe('Enter a postcode of letters and digits.');
  });
});
