import type { Draw, Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

/** A notebook: an elastic band (notebooks), a spiral along the top (sketchbooks) or the side (planners). */
function notebook(binding: 'band' | 'spiral-top' | 'spiral-side'): Draw {
  return (p) =>
    `<rect x="54" y="34" width="96" height="132" rx="8" fill="${p.main}"/>` +
    (binding === 'band' ? `<path d="M130 34v132" stroke="${p.dark}" stroke-width="6"/><rect x="70" y="56" width="44" height="20" rx="3" fill="${p.light}"/>` : '') +
    (binding === 'spiral-top' ? `<path d="M62 34h80" stroke="${p.dark}" stroke-width="10" stroke-dasharray="4 6"/><rect x="66" y="70" width="72" height="56" rx="3" fill="${p.light}"/>` : '') +
    (binding === 'spiral-side' ? `<path d="M54 44v112" stroke="${p.dark}" stroke-width="10" stroke-dasharray="4 6"/><rect x="76" y="56" width="56" height="14" rx="3" fill="${p.light}"/><path d="M76 90h56M76 104h56M76 118h56" stroke="${p.light}" stroke-width="3"/>` : '');
}

/** A landscape book with a picture on the cover, for children. */
const pictureBook: Draw = (p) =>
  `<rect x="30" y="56" width="140" height="104" rx="4" fill="${p.main}"/><rect x="30" y="56" width="12" height="104" fill="${p.dark}"/><circle cx="120" cy="92" r="14" fill="#f2c443"/><path d="M52 148l30-40 24 26 18-18 34 32z" fill="${p.light}"/>`;

/** Books & Stationery: fiction, non-fiction, children's books, stationery, art supplies. */
export const booksDrawings: Drawings = {
  novels: shapes.book,
  'crime-novels': shapes.book,
  'science-fiction-novels': shapes.book,
  'short-story-collections': shapes.book,
  cookbooks: shapes.book,
  biographies: shapes.book,
  'travel-guides': shapes.book,
  'history-books': shapes.book,
  'picture-books': pictureBook,
  'activity-books': pictureBook,
  'bedtime-stories': pictureBook,
  notebooks: notebook('band'),
  'fountain-pens': shapes.pen,
  planners: notebook('spiral-side'),
  'desk-organisers': (p) => `<rect x="40" y="96" width="70" height="70" rx="6" fill="${p.main}"/><rect x="112" y="120" width="52" height="46" rx="6" fill="${p.dark}"/><path d="M58 96l-8-50M76 96V40M94 96l10-46" stroke="${p.dark}" stroke-width="6" stroke-linecap="round"/><path d="M126 120l4-24M148 120l-2-20" stroke="${p.light}" stroke-width="6" stroke-linecap="round"/>`,
  'paint-sets': (p) => `<path d="M100 40c50 0 76 30 70 64-4 22-30 14-36 30-6 18 8 30-30 30-50 0-78-30-78-62s26-62 74-62z" fill="${p.main}"/><circle cx="64" cy="84" r="10" fill="#c8423b"/><circle cx="94" cy="66" r="10" fill="#e8c547"/><circle cx="128" cy="72" r="10" fill="#3f6fb5"/><circle cx="60" cy="118" r="10" fill="#4f9a5b"/><circle cx="104" cy="120" r="12" fill="${p.light}"/>`,
  sketchbooks: notebook('spiral-top'),
  easels: (p) => `<path d="M100 28L54 168M100 28l46 140M100 28v140" stroke="${p.dark}" stroke-width="7" stroke-linecap="round"/><rect x="58" y="44" width="84" height="70" rx="3" fill="#ffffff" stroke="${p.main}" stroke-width="6"/><path d="M68 100l20-26 14 16 10-10 20 20z" fill="${p.main}" opacity="0.7"/><path d="M52 120h96" stroke="${p.main}" stroke-width="8"/>`,
  'coloured-pencils': (p) => `<rect x="36" y="110" width="128" height="56" rx="6" fill="${p.main}"/>${['#c8423b', '#e58a3a', '#e8c547', '#4f9a5b', '#3f6fb5', '#7b59a8'].map((c, i) => `<path d="M${52 + i * 19} 112V${54 + (i % 2) * 10}l6-12 6 12V112z" fill="${c}"/>`).join('')}<rect x="36" y="126" width="128" height="18" fill="${p.light}"/>`,
};
