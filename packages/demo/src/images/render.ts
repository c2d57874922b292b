import { colours } from '../catalogue/colors.ts';
import { leaves } from '../catalogue/leaves.ts';
import { slugify } from '../slug.ts';
import { drawings } from './drawings/index.ts';
import type { Draw, Palette } from './palette.ts';

/** Mixes a `#rrggbb` colour towards white (amount > 0) or black (amount < 0). */
export function mix(hex: string, amount: number): string {
  const target = amount > 0 ? 255 : 0;
  const weight = Math.abs(amount);
  const channels = [1, 3, 5].map((i) => {
    const value = parseInt(hex.slice(i, i + 2), 16);
    return Math.round(value + (target - value) * weight)
      .toString(16)
      .padStart(2, '0');
  });
  return `#${channels.join('')}`;
}

/** Relative luminance in [0, 1], enough to tell pale colours (white, silver, beige) from the rest. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

interface ImageSubject {
  draw: Draw;
  hex: string;
  label: string;
}

/** Every valid image name ("table-lamps-blue.svg") → what to draw; built on first use (150 × 17 entries). */
let subjects: Map<string, ImageSubject> | undefined;

function subjectFor(name: string): ImageSubject | undefined {
  if (!subjects) {
    subjects = new Map();
    for (const leaf of leaves) {
      const draw = drawings[leaf.slug];
      if (!draw) throw new Error(`No drawing for the product type ${leaf.slug}`);
      for (const colour of colours) {
        const label = `${colour.name} ${leaf.nounInText}`;
        subjects.set(`${leaf.slug}-${slugify(colour.name)}.svg`, { draw, hex: colour.hex, label });
      }
    }
  }
  return subjects.get(name);
}

/**
 * The SVG illustration behind a product's `image` path (`/images/products/<name>`): the drawing of the product's
 * type in its colour, on a soft tinted background. Returns undefined for a name no product uses, so the
 * server answers 404 rather than inventing an image; the lookup is exact, so no path trick reaches anything else.
 */
export function renderProductImage(name: string): string | undefined {
  const subject = subjectFor(name);
  if (!subject) return undefined;
  const palette: Palette = { main: subject.hex, dark: mix(subject.hex, -0.35), light: mix(subject.hex, 0.55) };
  const background = mix(subject.hex, 0.88);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="400" height="400" role="img">` +
    `<title>${subject.label}</title>` +
    `<defs><radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="#ffffff"/>` +
    `<stop offset="1" stop-color="${background}"/></radialGradient></defs>` +
    `<rect width="200" height="200" fill="url(#bg)"/>` +
    `<ellipse cx="100" cy="172" rx="70" ry="8" fill="#000" opacity="0.08"/>` +
    // Pale products get a thin outline, or they would melt into their pale background.
    (luminance(subject.hex) > 0.7
      ? `<g stroke="${palette.dark}" stroke-width="1.5" stroke-linejoin="round">${subject.draw(palette)}</g>`
      : subject.draw(palette)) +
    `</svg>`
  );
}
