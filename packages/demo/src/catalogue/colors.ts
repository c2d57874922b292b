/** Product colours, with the fill the illustrations use for each. */
export interface Colour {
  readonly name: string;
  /** How often products come in this colour, relative to the others (black and white are the most common). */
  readonly weight: number;
  readonly hex: string;
}

export const colours: readonly Colour[] = [
  { name: 'Black', weight: 14, hex: '#2b2b2e' },
  { name: 'White', weight: 10, hex: '#f4f3ef' },
  { name: 'Grey', weight: 9, hex: '#8a8d91' },
  { name: 'Silver', weight: 5, hex: '#c4c8cc' },
  { name: 'Beige', weight: 6, hex: '#d9c7a7' },
  { name: 'Brown', weight: 6, hex: '#8b5a3c' },
  { name: 'Red', weight: 6, hex: '#c8423b' },
  { name: 'Orange', weight: 3, hex: '#e58a3a' },
  { name: 'Yellow', weight: 3, hex: '#e8c547' },
  { name: 'Green', weight: 5, hex: '#4f9a5b' },
  { name: 'Olive', weight: 2, hex: '#7d7f45' },
  { name: 'Teal', weight: 3, hex: '#2f8f8c' },
  { name: 'Blue', weight: 8, hex: '#3f6fb5' },
  { name: 'Navy', weight: 5, hex: '#27365e' },
  { name: 'Purple', weight: 2, hex: '#7b59a8' },
  { name: 'Pink', weight: 4, hex: '#e38bab' },
  { name: 'Gold', weight: 2, hex: '#c9a245' },
];
