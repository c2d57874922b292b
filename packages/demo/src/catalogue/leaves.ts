import { slugify } from '../slug.ts';
import { BRANDS_PER_DEPARTMENT, departmentBrands } from './brands.ts';
import { closingsByDepartment, featuresByShape } from './text.ts';
import { codePrefix, usesModelCodes } from './models.ts';
import type { ProductType, Shape } from './taxonomy.ts';
import { departments } from './taxonomy.ts';

/**
 * The category tree flattened to its 150 product types, with every string a product needs computed once:
 * generating a million products then only concatenates.
 */
export interface Leaf {
  readonly department: number;
  readonly type: ProductType;
  readonly shape: Shape;
  readonly lvl0: string;
  readonly lvl1: string;
  readonly lvl2: string;
  /** Leaf names of the three levels: the flat `categories` attribute. */
  readonly categories: readonly string[];
  /** Slug of the product type ("table-lamps"), used in image names. */
  readonly slug: string;
  readonly nounSlug: string;
  /** The noun as it reads inside a sentence ("table lamp"). */
  readonly nounInText: string;
  readonly materials: readonly string[];
  readonly materialSlugs: readonly string[];
  readonly materialsInText: readonly string[];
  readonly sizes: readonly string[];
  /** The noun with each size, as it ends a name ("Table Lamp 40 cm", "Drinking Glass Set of 4", not "Set Set of 4"). */
  readonly sizedNouns: readonly string[];
  readonly sizedNounSlugs: readonly string[];
  /** Model code prefix ("CS" for circular saws) where models carry codes; undefined where they carry names. */
  readonly modelPrefix: string | undefined;
  /** Whether one model comes in several colours (not books, nor beauty products, whose variants are sizes). */
  readonly colourVariants: boolean;
  readonly brands: readonly string[];
  readonly brandSlugs: readonly string[];
  readonly features: readonly string[];
  readonly closings: readonly string[];
  readonly logMinPrice: number;
  readonly logPriceSpan: number;
}

/** Lower-cases words for use mid-sentence, keeping letters and acronyms that must stay capital ("Vitamin C"). */
export function inText(words: string): string {
  return words
    .split(' ')
    .map((word) => (word.length > 1 && word !== word.toUpperCase() ? word.toLowerCase() : word))
    .join(' ');
}

/** Departments whose models come in one colour: a book's cover or a cream's packaging is not a choice. */
const SINGLE_COLOUR_DEPARTMENTS = new Set(['Books & Stationery', 'Beauty & Health']);

/** "Drinking Glass Set" + "Set of 4" → "Drinking Glass Set of 4": a size that repeats the noun's last word merges. */
export function withSize(noun: string, size: string): string {
  const last = noun.slice(noun.lastIndexOf(' ') + 1);
  return size.startsWith(last + ' ') ? `${noun} ${size.slice(last.length + 1)}` : `${noun} ${size}`;
}

function buildLeaves(): Leaf[] {
  const leaves: Leaf[] = [];
  departments.forEach((department, d) => {
    const brands = departmentBrands(d);
    if (brands.length !== BRANDS_PER_DEPARTMENT) throw new Error('Not enough brand names for every department');
    const brandSlugs = brands.map(slugify);
    for (const category of department.categories) {
      const lvl1 = `${department.name} > ${category.name}`;
      for (const type of category.types) {
        const materials = type.materials ?? category.materials;
        const sizedNouns = type.sizes.map((size) => withSize(type.noun, size));
        leaves.push({
          department: d,
          type,
          shape: type.shape,
          lvl0: department.name,
          lvl1,
          lvl2: `${lvl1} > ${type.category}`,
          categories: [department.name, category.name, type.category],
          slug: slugify(type.category),
          nounSlug: slugify(type.noun),
          nounInText: inText(type.noun),
          materials,
          materialSlugs: materials.map(slugify),
          materialsInText: materials.map(inText),
          sizes: type.sizes,
          sizedNouns,
          sizedNounSlugs: sizedNouns.map(slugify),
          modelPrefix: usesModelCodes(category.name) ? codePrefix(type.noun) : undefined,
          colourVariants: !SINGLE_COLOUR_DEPARTMENTS.has(department.name),
          brands,
          brandSlugs,
          features: featuresByShape[type.shape],
          closings: closingsByDepartment[d],
          logMinPrice: Math.log(type.minPrice),
          logPriceSpan: Math.log(type.maxPrice) - Math.log(type.minPrice),
        });
      }
    }
  });
  return leaves;
}

export const leaves: readonly Leaf[] = buildLeaves();
