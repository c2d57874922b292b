import type { Product } from '@vitrine/protocol';
import { colours } from './catalogue/colors.ts';
import { leaves } from './catalogue/leaves.ts';
import { BRANDS_PER_DEPARTMENT } from './catalogue/brands.ts';
import { productLines } from './catalogue/text.ts';
import { createRandom } from './random.ts';
import type { Random } from './random.ts';
import { slugify } from './slug.ts';

/** The seed used when none is given: the catalogue `vitrine start` creates. */
export const DEFAULT_SEED = 1;

const productLineSlugs = productLines.map(slugify);
const colourSlugs = colours.map((colour) => slugify(colour.name));
const colourInText = colours.map((colour) => colour.name.toLowerCase());
const colourArticle = colourInText.map((name) => (/^[aeiou]/.test(name) ? 'An' : 'A'));
const colourCumulative = cumulative(colours.map((colour) => colour.weight));
/** Ratings lean to 4, as on real shops: 1 ★ 3 %, 2 ★ 6 %, 3 ★ 18 %, 4 ★ 45 %, 5 ★ 28 %. */
const ratingCumulative = cumulative([3, 6, 18, 45, 28]);

function cumulative(weights: number[]): number[] {
  const total = weights.reduce((sum, w) => sum + w, 0);
  let running = 0;
  return weights.map((w) => (running += w / total));
}

function pickWeighted(table: number[], u: number): number {
  let i = 0;
  while (i < table.length - 1 && u >= table[i]) i++;
  return i;
}

/** Shop-like prices: 12.99 under 100, 249.99 under 1000, 1249 above. */
function roundPrice(raw: number): number {
  if (raw < 100) return Math.round((Math.floor(raw) + 0.99) * 100) / 100;
  if (raw < 1000) return Math.round((Math.floor(raw / 10) * 10 + 9.99) * 100) / 100;
  return Math.floor(raw / 50) * 50 + 49;
}

/**
 * Streams `count` demo products. Deterministic: the same seed gives the same products, byte for byte, and a
 * shorter catalogue is a prefix of a longer one with the same seed. Products are built one at a time, so a
 * million of them never sit in memory together unless the caller keeps them.
 */
export function* generateProducts(count: number, seed: number = DEFAULT_SEED): Generator<Product> {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const random = createRandom(seed);
  for (let i = 0; i < count; i++) yield makeProduct(random, i);
}

function makeProduct(random: Random, index: number): Product {
  const leaf = leaves[random.int(leaves.length)];
  // Long tail: squaring-ish a uniform draw favours each department's first brands (about 18 % for the top one,
  // under 2 % for the last of its 30).
  const brandIndex = Math.floor(BRANDS_PER_DEPARTMENT * Math.pow(random.next(), 2.2));
  const brand = leaf.brands[brandIndex];
  const lineIndex = random.next() < 0.35 ? random.int(productLines.length) : -1;
  const materialIndex = random.int(leaf.materials.length);
  const sizeIndex = leaf.sizes.length > 0 ? random.int(leaf.sizes.length) : -1;
  const colourIndex = pickWeighted(colourCumulative, random.next());

  let name = brand;
  let slug = leaf.brandSlugs[brandIndex];
  if (lineIndex >= 0) {
    name += ' ' + productLines[lineIndex];
    slug += '-' + productLineSlugs[lineIndex];
  }
  name += ' ' + leaf.materials[materialIndex] + ' ' + leaf.type.noun;
  slug += '-' + leaf.materialSlugs[materialIndex] + '-' + leaf.nounSlug;
  if (sizeIndex >= 0) {
    name += ' ' + leaf.sizes[sizeIndex];
    slug += '-' + leaf.sizeSlugs[sizeIndex];
  }

  // Larger sizes cost more: up to +40 % for the largest.
  const sizeFactor = sizeIndex > 0 ? 1 + (0.4 * sizeIndex) / (leaf.sizes.length - 1) : 1;
  const price = roundPrice(Math.exp(leaf.logMinPrice + random.next() * leaf.logPriceSpan) * sizeFactor);
  const rating = pickWeighted(ratingCumulative, random.next()) + 1;
  // Popular brands gather more reviews; counts run from 0 to about 10,000 with most products far below.
  const brandReach = 1 - brandIndex / BRANDS_PER_DEPARTMENT;
  const reviewCount = Math.floor(Math.exp(random.next() * 9.2 * (0.55 + 0.45 * brandReach))) - 1;
  const popularity = Math.round(reviewCount * (rating + 1) * 2 + random.next() * 2000 * brandReach);
  const free_shipping = random.next() < (price >= 50 ? 0.85 : 0.25);

  const size = sizeIndex >= 0 ? ` (${leaf.sizes[sizeIndex]})` : '';
  const description =
    `${colourArticle[colourIndex]} ${colourInText[colourIndex]} ${leaf.materialsInText[materialIndex]} ${leaf.nounInText}` +
    ` from ${brand}${size} ${leaf.features[random.int(leaf.features.length)]}. ${leaf.closings[random.int(leaf.closings.length)]}`;

  return {
    objectID: String(index + 1),
    name,
    description,
    brand,
    categories: leaf.categories.slice(),
    hierarchicalCategories: { lvl0: leaf.lvl0, lvl1: leaf.lvl1, lvl2: leaf.lvl2 },
    price,
    rating,
    reviewCount,
    color: colours[colourIndex].name,
    free_shipping,
    popularity,
    image: `/images/products/${leaf.slug}-${colourSlugs[colourIndex]}.svg`,
    slug,
  };
}
