import { createRandom } from '../random.ts';

/**
 * Brand names: invented (no real trademarks), pronounceable, built from a stem and an ending, then dealt out to
 * the departments so that each department has its own 30 brands. The list is fixed (its own seed), whatever seed
 * the products use, so a brand keeps its name across catalogues.
 */
const STEMS = [
  'Lum', 'Nor', 'Kal', 'Ver', 'Ast', 'Bel', 'Cor', 'Dav', 'El', 'Fen', 'Gal', 'Hal', 'Is', 'Jun', 'Kor',
  'Lin', 'Mar', 'Nov', 'Or', 'Pal', 'Quin', 'Ros', 'Sol', 'Tar', 'Ul', 'Val', 'Wes', 'Zen', 'Ard', 'Bri',
];
const ENDINGS = ['io', 'vik', 'dera', 'ano', 'ra', 'ex', 'tek', 'ora', 'ia', 'wood', 'mark', 'ford', 'ica', 'lux', 'aro', 'en'];

export const BRANDS_PER_DEPARTMENT = 30;

function buildBrandNames(): string[] {
  const all: string[] = [];
  for (const stem of STEMS) for (const ending of ENDINGS) all.push(stem + ending);
  // Fisher–Yates with a fixed seed: a varied mix of stems in each department.
  const random = createRandom(0x5eed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all;
}

const names = buildBrandNames();

/** The brands of department `d` (0-based), most popular first. */
export function departmentBrands(d: number): string[] {
  return names.slice(d * BRANDS_PER_DEPARTMENT, (d + 1) * BRANDS_PER_DEPARTMENT);
}
