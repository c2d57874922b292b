import type { Drawings } from '../palette.ts';
import { beautyDrawings } from './beauty.ts';
import { booksDrawings } from './books.ts';
import { electronicsDrawings } from './electronics.ts';
import { fashionDrawings } from './fashion.ts';
import { gardenDrawings } from './garden.ts';
import { homeDrawings } from './home.ts';
import { sportsDrawings } from './sports.ts';
import { toysDrawings } from './toys.ts';

/** The drawing of every product type, by its slug ("circular-saws"), one file per department. */
export const drawings: Drawings = {
  ...homeDrawings,
  ...electronicsDrawings,
  ...fashionDrawings,
  ...sportsDrawings,
  ...beautyDrawings,
  ...toysDrawings,
  ...booksDrawings,
  ...gardenDrawings,
};
