/**
 * Model designations: what tells two products of one brand and type apart ("Martek CS-450 Cordless Circular
 * Saw", "Lumio Aria Ceramic Table Lamp"). A brand numbers its models as it creates them, across all its
 * product types, and a designation is a one-to-one function of that number, so two models of a brand never
 * share a designation: together with the brand it makes every product name unique, at any catalogue size.
 */
import { productLines } from './text.ts';

/**
 * Model names for shops where products carry names rather than codes. Invented, one word, none of them a
 * product line, colour or material word, so a name still reads unambiguously as brand, line, model, rest.
 */
const MODEL_NAMES = [
  'Aria', 'Bora', 'Cala', 'Dune', 'Elba', 'Fjord', 'Haven', 'Iris', 'Juno', 'Kiva', 'Luna', 'Mira',
  'Nola', 'Orla', 'Pia', 'Reva', 'Sora', 'Tova', 'Vela', 'Wren', 'Yara', 'Alba', 'Bryn', 'Cleo',
  'Dara', 'Esme', 'Faro', 'Greta', 'Hana', 'Ines', 'Kira', 'Lena', 'Maya', 'Nia', 'Pola', 'Rhea',
  'Sana', 'Tessa', 'Vida', 'Willa', 'Ada', 'Bea', 'Coral', 'Delta', 'Echo', 'Flora', 'Gaia', 'Hugo',
];

/** Categories whose products carry model codes ("CS-450"), as tools and electronics do. */
const CODED_CATEGORIES = new Set([
  'Computers', 'Phones & Tablets', 'Audio', 'TV & Video', 'Cameras', 'Fitness', 'Cycling', 'Camping',
  'Personal Care', 'Power Tools', 'Hand Tools', 'Garden Tools',
]);

if (MODEL_NAMES.some((name) => productLines.includes(name))) throw new Error('A model name must not be a product line');

export function usesModelCodes(category: string): boolean {
  return CODED_CATEGORIES.has(category);
}

/** Code prefix of a product type: initials of a noun of several words, else its first two letters ("DR"). */
export function codePrefix(noun: string): string {
  const words = noun.split(' ').filter((word) => /^[A-Za-z]/.test(word));
  const letters = words.length > 1 ? words.map((word) => word[0]).join('').slice(0, 3) : noun.slice(0, 2);
  return letters.toUpperCase();
}

/**
 * The n-th model number of a brand (n from 0): three digits for the first 900 models, four for the next 9,000,
 * then five and more. Within a width the numbers are shuffled (n × 37 modulo the range is one-to-one), so a
 * brand's codes look like a range rather than a count, and `brandOffset` starts each brand elsewhere.
 */
export function modelNumber(n: number, brandOffset: number): number {
  if (n < 900) return 100 + ((n * 37 + brandOffset) % 900);
  if (n < 9900) return 1000 + (((n - 900) * 37 + brandOffset) % 9000);
  return 10_000 + (n - 9900);
}

/** The n-th model name of a brand: each of the words once, then each again with a generation number ("Aria 2"). */
export function modelName(n: number, brandOffset: number): string {
  const word = MODEL_NAMES[(n + brandOffset) % MODEL_NAMES.length];
  const generation = Math.floor(n / MODEL_NAMES.length);
  return generation === 0 ? word : `${word} ${generation + 1}`;
}
