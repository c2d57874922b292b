import type { Product } from '@vitrine/protocol';
import { colours } from './catalogue/colors.ts';
import { leaves } from './catalogue/leaves.ts';
import type { Leaf } from './catalogue/leaves.ts';
import { BRANDS_PER_DEPARTMENT } from './catalogue/brands.ts';
import { departments } from './catalogue/taxonomy.ts';
import { modelName, modelNumber } from './catalogue/models.ts';
import { productLines } from './catalogue/text.ts';
import { createRandom } from './random.ts';
import type { Random } from './random.ts';
import { averageRating, drawQuality } from './ratings.ts';
import { slugify } from './slug.ts';

/** The seed used when none is given: the catalogue `vitrine start` creates. */
export const DEFAULT_SEED = 1;

/** A model comes in at most this many variants (sizes × colours). */
const MAX_VARIANTS = 8;

const productLineSlugs = productLines.map(slugify);
const colourSlugs = colours.map((colour) => slugify(colour.name));
const colourInText = colours.map((colour) => colour.name.toLowerCase());
const colourArticle = colourInText.map((name) => (/^[aeiou]/.test(name) ? 'An' : 'A'));
const colourCumulative = cumulative(colours.map((colour) => colour.weight));

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

/** One model: what its variants share. */
interface Model {
  readonly groupID: string;
  readonly leaf: Leaf;
  readonly brandIndex: number;
  /** "Martek Pro CS-450 Cordless": the name up to the product noun, and its slug. */
  readonly stem: string;
  readonly stemSlug: string;
  readonly materialIndex: number;
  /** Unrounded price of the smallest size; larger sizes cost up to 40 % more (the model's price band). */
  readonly basePrice: number;
  readonly quality: number;
  readonly feature: string;
  readonly closing: string;
  /** Size indices of the variants (-1: the type has no sizes), and their colour indices. */
  readonly sizes: readonly number[];
  readonly colours: readonly number[];
}

/**
 * Streams `count` demo products. Products come in models of one to eight variants (sizes × colours) that share
 * a `groupID`, a name stem, a material and a price band; each variant has its own objectID, colour, image,
 * reviews and rating. Every name is unique (see catalogue/models.ts). Deterministic: the same seed gives the
 * same products, byte for byte, and a shorter catalogue is a prefix of a longer one with the same seed.
 * Products are built one at a time, so a million of them never sit in memory together unless the caller
 * keeps them.
 */
export function* generateProducts(count: number, seed: number = DEFAULT_SEED): Generator<Product> {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  const random = createRandom(seed);
  const modelsPerBrand = new Uint32Array(BRANDS_PER_DEPARTMENT * departments.length);
  let produced = 0;
  for (let group = 1; produced < count; group++) {
    const model = makeModel(random, modelsPerBrand, group);
    const showColour = model.colours.length > 1;
    for (const sizeIndex of model.sizes) {
      for (const colourIndex of model.colours) {
        if (produced === count) return;
        yield makeVariant(random, model, sizeIndex, colourIndex, showColour, ++produced);
      }
    }
  }
}

/** `count` distinct picks from a weighted table (colours), the first by weight, the others nearly so. */
function pickDistinct(random: Random, table: number[], count: number): number[] {
  const picked: number[] = [];
  while (picked.length < count) {
    const i = pickWeighted(table, random.next());
    if (!picked.includes(i)) picked.push(i);
  }
  return picked;
}

function makeModel(random: Random, modelsPerBrand: Uint32Array, group: number): Model {
  const leaf = leaves[random.int(leaves.length)];
  // Long tail: squaring-ish a uniform draw favours each department's first brands (about 18 % for the top one,
  // under 2 % for the last of its 30).
  const brandIndex = Math.floor(BRANDS_PER_DEPARTMENT * Math.pow(random.next(), 2.2));
  const brandNumber = leaf.department * BRANDS_PER_DEPARTMENT + brandIndex;
  const n = modelsPerBrand[brandNumber]++;
  const lineIndex = random.next() < 0.3 ? random.int(productLines.length) : -1;
  const materialIndex = random.int(leaf.materials.length);

  let stem = leaf.brands[brandIndex];
  let stemSlug = leaf.brandSlugs[brandIndex];
  if (lineIndex >= 0 && !leaf.materials[materialIndex].includes(productLines[lineIndex])) {
    stem += ' ' + productLines[lineIndex];
    stemSlug += '-' + productLineSlugs[lineIndex];
  }
  if (leaf.modelPrefix) {
    const code = `${leaf.modelPrefix}-${modelNumber(n, brandNumber * 131)}`;
    stem += ' ' + code;
    stemSlug += '-' + code.toLowerCase();
  } else {
    const name = modelName(n, brandNumber * 7);
    stem += ' ' + name;
    stemSlug += '-' + name.toLowerCase().replace(' ', '-');
  }
  stem += ' ' + leaf.materials[materialIndex];
  stemSlug += '-' + leaf.materialSlugs[materialIndex];

  // Most models come in one or two sizes and one or two colours; a few in many.
  let sizes = [-1];
  if (leaf.sizes.length > 0) {
    const sizeCount = 1 + Math.floor(random.next() * random.next() * leaf.sizes.length);
    const first = random.int(leaf.sizes.length - sizeCount + 1);
    sizes = Array.from({ length: sizeCount }, (_, k) => first + k);
  }
  const wanted = leaf.colourVariants ? 1 + Math.floor(random.next() * random.next() * 5) : 1;
  const colourCount = Math.max(1, Math.min(wanted, Math.floor(MAX_VARIANTS / sizes.length)));

  return {
    groupID: `g${group}`,
    leaf,
    brandIndex,
    stem,
    stemSlug,
    materialIndex,
    basePrice: Math.exp(leaf.logMinPrice + random.next() * leaf.logPriceSpan),
    quality: drawQuality(random),
    feature: leaf.features[random.int(leaf.features.length)],
    closing: leaf.closings[random.int(leaf.closings.length)],
    sizes,
    colours: pickDistinct(random, colourCumulative, colourCount),
  };
}

function makeVariant(random: Random, model: Model, sizeIndex: number, colourIndex: number, showColour: boolean, number: number): Product {
  const { leaf, brandIndex } = model;
  const brand = leaf.brands[brandIndex];
  let name = model.stem + ' ';
  let slug = model.stemSlug + '-';
  if (sizeIndex >= 0) {
    name += leaf.sizedNouns[sizeIndex];
    slug += leaf.sizedNounSlugs[sizeIndex];
  } else {
    name += leaf.type.noun;
    slug += leaf.nounSlug;
  }
  if (showColour) {
    name += ', ' + colours[colourIndex].name;
    slug += '-' + colourSlugs[colourIndex];
  }

  // Larger sizes cost more: up to +40 % for the largest.
  const sizeFactor = sizeIndex > 0 ? 1 + (0.4 * sizeIndex) / (leaf.sizes.length - 1) : 1;
  const price = roundPrice(model.basePrice * sizeFactor);
  // Popular brands gather more reviews; counts run from 0 to about 10,000 with most products far below.
  const brandReach = 1 - brandIndex / BRANDS_PER_DEPARTMENT;
  const reviewCount = Math.floor(Math.exp(random.next() * 9.2 * (0.55 + 0.45 * brandReach))) - 1;
  const rating = averageRating(random, model.quality, reviewCount);
  const popularity = Math.round(reviewCount * (rating + 1) * 2 + random.next() * 2000 * brandReach);
  const free_shipping = random.next() < (price >= 50 ? 0.85 : 0.25);

  const size = sizeIndex >= 0 ? ` (${leaf.sizes[sizeIndex]})` : '';
  const description =
    `${colourArticle[colourIndex]} ${colourInText[colourIndex]} ${leaf.materialsInText[model.materialIndex]} ${leaf.nounInText}` +
    ` from ${brand}${size} ${model.feature}. ${model.closing}`;

  const product: Product = {
    objectID: String(number),
    groupID: model.groupID,
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
  if (sizeIndex >= 0) product.size = leaf.sizes[sizeIndex];
  return product;
}
