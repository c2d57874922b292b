/** The three tones an illustration is painted with, all derived from the product colour. */
export interface Palette {
  /** The product colour. */
  main: string;
  /** Outlines and shadows: keeps white and silver products visible on a light background. */
  dark: string;
  /** Highlights. */
  light: string;
}

/** A drawing on a 200 × 200 canvas with the floor line at y = 170, as SVG elements. */
export type Draw = (p: Palette) => string;

/** Drawings by product type slug ("table-lamps"). */
export type Drawings = Record<string, Draw>;
