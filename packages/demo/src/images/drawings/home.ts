import type { Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

/** Home & Kitchen: lighting, furniture, cookware, tableware, bedding. */
export const homeDrawings: Drawings = {
  'table-lamps': shapes.lamp,
  'floor-lamps': (p) => `<path d="M74 22h52l14 40H60z" fill="${p.main}"/><rect x="97" y="62" width="6" height="98" fill="${p.dark}"/><ellipse cx="100" cy="162" rx="30" ry="7" fill="${p.dark}"/>`,
  'pendant-lights': (p) => `<path d="M100 0v66" stroke="${p.dark}" stroke-width="3"/><rect x="92" y="62" width="16" height="14" rx="3" fill="${p.dark}"/><path d="M52 124a48 50 0 0 1 96 0z" fill="${p.main}"/><ellipse cx="100" cy="126" rx="22" ry="7" fill="#fff4c2"/>`,
  'desk-lamps': (p) => `<ellipse cx="70" cy="160" rx="34" ry="8" fill="${p.dark}"/><path d="M70 156L56 100l62-40" fill="none" stroke="${p.main}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/><circle cx="56" cy="100" r="7" fill="${p.dark}"/><path d="M108 46l44 26-16 26-42-24z" fill="${p.main}"/><path d="M136 98l-22-12" stroke="#fff4c2" stroke-width="6" stroke-linecap="round"/>`,
  armchairs: shapes.chair,
  sofas: shapes.sofa,
  'coffee-tables': (p) => `<rect x="24" y="104" width="152" height="14" rx="4" fill="${p.main}"/><rect x="36" y="136" width="128" height="8" rx="3" fill="${p.light}"/><path d="M36 118v46M164 118v46" stroke="${p.dark}" stroke-width="9" stroke-linecap="round"/>`,
  bookcases: shapes.shelf,
  'frying-pans': shapes.pan,
  saucepans: (p) => `<rect x="44" y="88" width="96" height="70" rx="8" fill="${p.main}"/><rect x="38" y="82" width="108" height="10" rx="4" fill="${p.dark}"/><rect x="144" y="92" width="48" height="10" rx="5" fill="${p.dark}"/><rect x="52" y="100" width="10" height="48" rx="4" fill="${p.light}"/>`,
  'dutch-ovens': (p) => `<rect x="44" y="92" width="112" height="68" rx="20" fill="${p.main}"/><path d="M44 106H30M156 106h14" stroke="${p.dark}" stroke-width="10" stroke-linecap="round"/><path d="M40 94q60-34 120 0z" fill="${p.dark}"/><rect x="90" y="66" width="20" height="12" rx="5" fill="${p.dark}"/>`,
  'baking-trays': (p) => `<path d="M24 122l34-34h118l-34 34z" fill="${p.main}"/><path d="M24 122h118v12H24zM142 122l34-34v12l-34 34z" fill="${p.dark}"/><path d="M58 104h80M48 114h80" stroke="${p.light}" stroke-width="3"/>`,
  'dinner-plates': shapes.plate,
  mugs: shapes.mug,
  'drinking-glasses': (p) => `<path d="M48 76h44l-6 88H54z" fill="${p.main}" opacity="0.55"/><path d="M104 62h50l-7 102h-36z" fill="${p.main}" opacity="0.75"/><path d="M110 74l4 80M54 88l3 66" stroke="#ffffff" stroke-width="4" opacity="0.7"/><path d="M48 76h44M104 62h50" stroke="${p.dark}" stroke-width="3"/>`,
  'serving-bowls': (p) => `<path d="M34 98h132a66 62 0 0 1-132 0z" fill="${p.main}"/><ellipse cx="100" cy="98" rx="66" ry="13" fill="${p.dark}"/><ellipse cx="100" cy="98" rx="58" ry="9" fill="${p.light}"/><rect x="80" y="156" width="40" height="8" rx="3" fill="${p.dark}"/>`,
  'duvet-covers': (p) => `<rect x="26" y="62" width="148" height="100" rx="10" fill="${p.main}"/><path d="M26 96h148" stroke="${p.dark}" stroke-width="3"/><path d="M40 78h120" stroke="${p.light}" stroke-width="4"/><circle cx="60" cy="150" r="4" fill="${p.dark}"/><circle cx="100" cy="150" r="4" fill="${p.dark}"/><circle cx="140" cy="150" r="4" fill="${p.dark}"/>`,
  pillows: shapes.pillow,
  'throw-blankets': (p) => `<rect x="36" y="86" width="128" height="26" rx="10" fill="${p.main}"/><rect x="36" y="112" width="128" height="26" rx="10" fill="${p.dark}"/><rect x="36" y="138" width="128" height="26" rx="10" fill="${p.main}"/><path d="M164 92v66" stroke="${p.light}" stroke-width="4" stroke-dasharray="2 4"/><path d="M60 99h80M60 151h80" stroke="${p.light}" stroke-width="3"/>`,
  'bath-towels': (p) => `<rect x="40" y="100" width="120" height="30" rx="6" fill="${p.main}"/><rect x="40" y="132" width="120" height="32" rx="6" fill="${p.main}"/><path d="M40 118h120M40 152h120" stroke="${p.light}" stroke-width="6"/><path d="M54 64h92v34H54z" fill="${p.dark}" rx="6"/><path d="M54 84h92" stroke="${p.light}" stroke-width="5"/>`,
};
