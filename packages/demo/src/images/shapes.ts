import type { Shape } from '../catalogue/taxonomy.ts';
import type { Draw } from './palette.ts';

/**
 * Drawings shared by several product types (drawings/ picks one per type), on a 200 × 200 canvas with the floor
 * line at y = 170. Deliberately simple: flat shapes, one outline weight, so that all drawings stay consistent.
 */
export const shapes: Record<Shape, Draw> = {
  lamp: (p) => `<path d="M70 50h60l18 50H52z" fill="${p.main}"/><rect x="96" y="100" width="8" height="50" fill="${p.dark}"/><rect x="70" y="150" width="60" height="12" rx="4" fill="${p.dark}"/>`,
  sofa: (p) => `<rect x="30" y="80" width="140" height="50" rx="14" fill="${p.main}"/><rect x="20" y="100" width="30" height="50" rx="10" fill="${p.main}"/><rect x="150" y="100" width="30" height="50" rx="10" fill="${p.main}"/><rect x="45" y="118" width="110" height="30" rx="6" fill="${p.light}"/><rect x="34" y="150" width="8" height="16" fill="${p.dark}"/><rect x="158" y="150" width="8" height="16" fill="${p.dark}"/>`,
  chair: (p) => `<rect x="60" y="40" width="80" height="70" rx="12" fill="${p.main}"/><rect x="52" y="104" width="96" height="20" rx="8" fill="${p.main}"/><path d="M62 124l-6 44M138 124l6 44" stroke="${p.dark}" stroke-width="8" stroke-linecap="round"/>`,
  table: (p) => `<rect x="30" y="80" width="140" height="16" rx="4" fill="${p.main}"/><path d="M46 96v70M154 96v70" stroke="${p.dark}" stroke-width="10" stroke-linecap="round"/>`,
  shelf: (p) => `<rect x="55" y="30" width="90" height="138" rx="4" fill="${p.main}"/><path d="M63 70h74M63 110h74M63 150h74" stroke="${p.dark}" stroke-width="6"/><rect x="70" y="50" width="10" height="20" fill="${p.light}"/><rect x="84" y="92" width="8" height="18" fill="${p.light}"/>`,
  pan: (p) => `<ellipse cx="90" cy="120" rx="60" ry="22" fill="${p.dark}"/><ellipse cx="90" cy="114" rx="56" ry="18" fill="${p.main}"/><rect x="146" y="108" width="44" height="10" rx="5" fill="${p.dark}"/>`,
  mug: (p) => `<rect x="62" y="70" width="66" height="90" rx="10" fill="${p.main}"/><path d="M128 90h10a16 16 0 0 1 0 32h-10" fill="none" stroke="${p.dark}" stroke-width="8"/><rect x="62" y="70" width="66" height="10" fill="${p.light}"/>`,
  plate: (p) => `<ellipse cx="100" cy="130" rx="72" ry="28" fill="${p.dark}"/><ellipse cx="100" cy="126" rx="68" ry="24" fill="${p.main}"/><ellipse cx="100" cy="126" rx="40" ry="13" fill="${p.light}"/>`,
  pillow: (p) => `<path d="M40 70q60-20 120 0q10 40 0 80q-60 20-120 0q-10-40 0-80z" fill="${p.main}"/><path d="M60 90q40-10 80 0" stroke="${p.light}" stroke-width="6" fill="none"/>`,
  laptop: (p) => `<rect x="50" y="50" width="100" height="70" rx="6" fill="${p.main}"/><rect x="58" y="58" width="84" height="54" fill="${p.light}"/><path d="M30 128h140l-10 14H40z" fill="${p.dark}"/>`,
  screen: (p) => `<rect x="30" y="40" width="140" height="90" rx="6" fill="${p.dark}"/><rect x="38" y="48" width="124" height="74" fill="${p.main}"/><rect x="94" y="130" width="12" height="24" fill="${p.dark}"/><rect x="70" y="152" width="60" height="8" rx="4" fill="${p.dark}"/>`,
  phone: (p) => `<rect x="70" y="28" width="60" height="128" rx="13" fill="${p.main}"/><rect x="76" y="38" width="48" height="108" rx="5" fill="#23272f"/><path d="M84 52l18-8" stroke="#ffffff" stroke-width="5" opacity="0.25" stroke-linecap="round"/>`,
  keyboard: (p) => `<rect x="25" y="90" width="150" height="56" rx="8" fill="${p.main}"/><path d="M38 104h124M38 118h124M38 132h124" stroke="${p.dark}" stroke-width="6" stroke-dasharray="10 4"/>`,
  headphones: (p) => `<path d="M55 120v-20a45 45 0 0 1 90 0v20" fill="none" stroke="${p.dark}" stroke-width="10"/><rect x="42" y="108" width="28" height="48" rx="10" fill="${p.main}"/><rect x="130" y="108" width="28" height="48" rx="10" fill="${p.main}"/>`,
  speaker: (p) => `<rect x="60" y="40" width="80" height="124" rx="12" fill="${p.main}"/><circle cx="100" cy="82" r="16" fill="${p.dark}"/><circle cx="100" cy="130" r="24" fill="${p.dark}"/><circle cx="100" cy="130" r="8" fill="${p.light}"/>`,
  camera: (p) => `<rect x="36" y="70" width="128" height="82" rx="10" fill="${p.main}"/><rect x="60" y="58" width="32" height="16" rx="4" fill="${p.dark}"/><circle cx="104" cy="111" r="28" fill="${p.dark}"/><circle cx="104" cy="111" r="16" fill="${p.light}"/>`,
  shirt: (p) => `<path d="M70 40l-40 22 14 30 16-8v82h80V84l16 8 14-30-40-22q-30 18-60 0z" fill="${p.main}"/><path d="M85 42q15 14 30 0" stroke="${p.dark}" stroke-width="5" fill="none"/>`,
  dress: (p) => `<path d="M80 36h40l-6 40 36 90H50l36-90z" fill="${p.main}"/><path d="M86 76h28" stroke="${p.dark}" stroke-width="6"/>`,
  trousers: (p) => `<path d="M68 34h64l8 132h-28l-12-92-12 92H60z" fill="${p.main}"/><rect x="68" y="34" width="64" height="10" fill="${p.dark}"/>`,
  shoe: (p) => `<path d="M36 140V96q26 4 40-10l22 26q40 6 66 20v8z" fill="${p.main}"/><rect x="34" y="140" width="134" height="12" rx="5" fill="${p.dark}"/><path d="M80 100l10 10M88 92l10 10" stroke="${p.light}" stroke-width="4"/>`,
  bag: (p) => `<path d="M76 80v-14a24 24 0 0 1 48 0v14" fill="none" stroke="${p.dark}" stroke-width="8"/><rect x="46" y="78" width="108" height="86" rx="12" fill="${p.main}"/><rect x="90" y="100" width="20" height="12" rx="3" fill="${p.light}"/>`,
  watch: (p) => `<rect x="82" y="30" width="36" height="140" rx="10" fill="${p.dark}"/><circle cx="100" cy="100" r="34" fill="${p.main}"/><circle cx="100" cy="100" r="26" fill="${p.light}"/><path d="M100 100V82M100 100l12 8" stroke="${p.dark}" stroke-width="4" stroke-linecap="round"/>`,
  glasses: (p) => `<circle cx="68" cy="108" r="26" fill="${p.main}" stroke="${p.dark}" stroke-width="6"/><circle cx="132" cy="108" r="26" fill="${p.main}" stroke="${p.dark}" stroke-width="6"/><path d="M94 104q6-8 12 0M42 102l-14-10M158 102l14-10" stroke="${p.dark}" stroke-width="6" fill="none"/>`,
  dumbbell: (p) => `<rect x="60" y="104" width="80" height="12" fill="${p.dark}"/><rect x="36" y="80" width="26" height="60" rx="6" fill="${p.main}"/><rect x="138" y="80" width="26" height="60" rx="6" fill="${p.main}"/>`,
  bike: (p) => `<circle cx="58" cy="128" r="30" fill="none" stroke="${p.dark}" stroke-width="7"/><circle cx="142" cy="128" r="30" fill="none" stroke="${p.dark}" stroke-width="7"/><path d="M58 128l28-48h44l12 48M86 80l14 48 30-48M80 74h16M124 70l8-8" stroke="${p.main}" stroke-width="8" fill="none" stroke-linejoin="round"/>`,
  tent: (p) => `<path d="M100 40L30 160h140z" fill="${p.main}"/><path d="M100 88l-22 72h44z" fill="${p.dark}"/>`,
  ball: (p) => `<circle cx="100" cy="104" r="58" fill="${p.main}"/><path d="M42 104h116M100 46v116M60 62q40 42 0 84M140 62q-40 42 0 84" stroke="${p.dark}" stroke-width="5" fill="none"/>`,
  bottle: (p) => `<rect x="88" y="30" width="24" height="24" rx="4" fill="${p.dark}"/><rect x="66" y="54" width="68" height="112" rx="16" fill="${p.main}"/><rect x="78" y="90" width="44" height="40" rx="4" fill="${p.light}"/>`,
  tube: (p) => `<rect x="84" y="84" width="32" height="80" rx="6" fill="${p.dark}"/><path d="M88 84V50l24-14v48z" fill="${p.main}"/>`,
  blocks: (p) => `<rect x="40" y="110" width="56" height="56" rx="4" fill="${p.main}"/><rect x="104" y="110" width="56" height="56" rx="4" fill="${p.dark}"/><rect x="72" y="54" width="56" height="56" rx="4" fill="${p.main}"/><circle cx="90" cy="48" r="6" fill="${p.main}"/><circle cx="110" cy="48" r="6" fill="${p.main}"/>`,
  book: (p) => `<rect x="56" y="34" width="92" height="130" rx="4" fill="${p.main}"/><rect x="56" y="34" width="14" height="130" fill="${p.dark}"/><rect x="84" y="60" width="50" height="8" rx="2" fill="${p.light}"/><rect x="84" y="76" width="36" height="6" rx="2" fill="${p.light}"/>`,
  pen: (p) => `<path d="M58 150L140 50l14 12-82 100-18 6z" fill="${p.main}"/><path d="M140 50l14 12" stroke="${p.dark}" stroke-width="8"/>`,
  plant: (p) => `<path d="M100 110q-40-20-30-64 30 16 30 64zM100 110q40-20 30-64-30 16-30 64zM100 110q0-40 0-74" fill="#5d9b63" stroke="#3f7446" stroke-width="3"/><path d="M62 108h76l-10 60H72z" fill="${p.main}"/>`,
  hammer: (p) => `<rect x="94" y="70" width="12" height="98" rx="5" fill="${p.dark}"/><path d="M60 46h72l10 12v14H60z" fill="${p.main}"/>`,
  drill: (p) => `<path d="M40 70h100a16 16 0 0 1 0 32H40z" fill="${p.main}"/><rect x="140" y="80" width="34" height="12" fill="${p.dark}"/><path d="M80 102h34l-8 60H88z" fill="${p.dark}"/>`,
};
