/**
 * Prices and counts as the shop shows them: the configured currency and locale (`vitrine.config.json`).
 */
import { useServices } from './services.ts';

export interface Format {
  /** A price in the configured currency and locale ("$1,299.99", "1 299,99 €"). */
  price(value: number): string;
  /** A count in the configured locale ("1,234"). */
  number(value: number): string;
}

const formats = new Map<string, Format>();

/**
 * Number formats of the configured locale: one currency, one style, on every page. Made once per locale and
 * currency: an `Intl.NumberFormat` costs far more to create than to use, and every hit shows a price (a server
 * render keeps no `useMemo` between renders).
 */
export function useFormat(): Format {
  const { config } = useServices();
  const key = `${config.locale}\u0000${config.currency}`;
  let format = formats.get(key);
  if (!format) {
    const price = new Intl.NumberFormat(config.locale, { style: 'currency', currency: config.currency });
    const number = new Intl.NumberFormat(config.locale);
    format = { price: (value) => price.format(value), number: (value) => number.format(value) };
    formats.set(key, format);
  }
  return format;
}
