import type { Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

/** A flip-cap bottle with a label. */
const capBottle = shapes.bottle;

/** Beauty & Health: skin care, hair care, fragrance, makeup, personal care. */
export const beautyDrawings: Drawings = {
  'face-creams': (p) => `<rect x="48" y="106" width="104" height="58" rx="12" fill="${p.main}"/><rect x="44" y="84" width="112" height="28" rx="8" fill="${p.dark}"/><rect x="70" y="124" width="60" height="22" rx="4" fill="${p.light}"/>`,
  cleansers: (p) => `<path d="M92 50h16v18H92zM108 54h22v8h-22z" fill="${p.dark}"/><rect x="86" y="64" width="28" height="14" rx="3" fill="${p.dark}"/><rect x="64" y="76" width="72" height="90" rx="14" fill="${p.main}"/><rect x="76" y="104" width="48" height="36" rx="4" fill="${p.light}"/>`,
  serums: (p) => `<rect x="88" y="36" width="24" height="30" rx="10" fill="${p.dark}"/><rect x="84" y="64" width="32" height="14" rx="2" fill="${p.dark}"/><rect x="70" y="78" width="60" height="88" rx="10" fill="${p.main}" opacity="0.9"/><rect x="80" y="108" width="40" height="30" rx="3" fill="${p.light}"/>`,
  sunscreens: (p) => `<path d="M70 40h60l-6 96H76z" fill="${p.main}"/><rect x="70" y="34" width="60" height="10" rx="2" fill="${p.dark}"/><rect x="80" y="136" width="40" height="28" rx="6" fill="${p.dark}"/><circle cx="100" cy="84" r="14" fill="#f2c443"/>`,
  shampoos: capBottle,
  conditioners: (p) => `<rect x="66" y="30" width="68" height="28" rx="10" fill="${p.dark}"/><path d="M66 56h68l6 108H60z" fill="${p.main}"/><rect x="76" y="92" width="48" height="40" rx="4" fill="${p.light}"/>`,
  'hair-dryers': (p) => `<path d="M40 66h88a30 30 0 0 1 0 60H40z" fill="${p.main}"/><rect x="24" y="70" width="20" height="52" rx="5" fill="${p.dark}"/><circle cx="128" cy="96" r="14" fill="${p.light}"/><path d="M96 124l-12 42h24l10-42z" fill="${p.main}"/><path d="M100 140h10" stroke="${p.dark}" stroke-width="5"/>`,
  brushes: (p) => `<ellipse cx="100" cy="64" rx="36" ry="44" fill="${p.main}"/><ellipse cx="100" cy="64" rx="26" ry="34" fill="${p.dark}"/><path d="M88 44v40M100 38v52M112 44v40" stroke="${p.light}" stroke-width="4" stroke-dasharray="2 5"/><rect x="90" y="104" width="20" height="64" rx="8" fill="${p.main}"/>`,
  'eau-de-parfum': (p) => `<rect x="84" y="44" width="32" height="26" rx="6" fill="${p.dark}"/><rect x="92" y="68" width="16" height="10" fill="${p.dark}"/><rect x="52" y="78" width="96" height="88" rx="14" fill="${p.main}" opacity="0.85"/><rect x="66" y="92" width="68" height="60" rx="8" fill="${p.light}" opacity="0.6"/>`,
  'eau-de-toilette': (p) => `<circle cx="100" cy="50" r="16" fill="${p.dark}"/><rect x="92" y="62" width="16" height="14" fill="${p.dark}"/><path d="M62 76h76l10 90H52z" fill="${p.main}" opacity="0.85"/><path d="M76 92l-6 60" stroke="#ffffff" stroke-width="6" opacity="0.5"/>`,
  'body-mists': (p) => `<rect x="90" y="28" width="20" height="20" rx="4" fill="${p.dark}"/><path d="M110 36h12" stroke="${p.dark}" stroke-width="4"/><rect x="72" y="48" width="56" height="118" rx="18" fill="${p.main}"/><rect x="82" y="84" width="36" height="48" rx="4" fill="${p.light}"/>`,
  'scented-candles': (p) => `<path d="M100 58q-10-14 0-30q10 16 0 30z" fill="#f08a3a"/><path d="M100 58v12" stroke="#333" stroke-width="3"/><rect x="54" y="70" width="92" height="96" rx="10" fill="${p.main}"/><rect x="54" y="70" width="92" height="14" rx="6" fill="${p.light}"/><rect x="70" y="108" width="60" height="34" rx="4" fill="${p.light}"/>`,
  lipsticks: shapes.tube,
  mascaras: (p) => `<rect x="66" y="70" width="28" height="96" rx="8" fill="${p.main}"/><rect x="66" y="60" width="28" height="16" rx="4" fill="${p.dark}"/><rect x="112" y="30" width="20" height="76" rx="6" fill="${p.dark}"/><rect x="119" y="106" width="6" height="30" fill="${p.dark}"/><rect x="114" y="134" width="16" height="30" rx="6" fill="#2b2b2e"/>`,
  foundations: (p) => `<rect x="86" y="36" width="28" height="38" rx="4" fill="${p.dark}"/><rect x="62" y="72" width="76" height="94" rx="8" fill="${p.main}"/><rect x="72" y="96" width="56" height="8" rx="2" fill="${p.light}"/>`,
  'eyeshadow-palettes': (p) => `<rect x="28" y="64" width="144" height="96" rx="10" fill="${p.dark}"/><circle cx="62" cy="94" r="16" fill="${p.main}"/><circle cx="100" cy="94" r="16" fill="${p.light}"/><circle cx="138" cy="94" r="16" fill="#d9a88f"/><circle cx="62" cy="132" r="16" fill="#b07a6e"/><circle cx="100" cy="132" r="16" fill="${p.main}" opacity="0.6"/><circle cx="138" cy="132" r="16" fill="#6e4a48"/>`,
  'electric-toothbrushes': (p) => `<rect x="84" y="74" width="32" height="92" rx="14" fill="${p.main}"/><rect x="92" y="30" width="16" height="50" rx="6" fill="${p.light}"/><rect x="90" y="28" width="20" height="16" rx="4" fill="#ffffff" stroke="${p.dark}" stroke-width="2"/><circle cx="100" cy="104" r="6" fill="${p.dark}"/>`,
  shavers: (p) => `<path d="M74 76h52l-6 90H80z" fill="${p.main}"/><rect x="62" y="40" width="76" height="38" rx="12" fill="${p.dark}"/><circle cx="80" cy="59" r="11" fill="${p.light}"/><circle cx="100" cy="59" r="11" fill="${p.light}"/><circle cx="120" cy="59" r="11" fill="${p.light}"/><circle cx="100" cy="110" r="7" fill="${p.dark}"/>`,
  'hair-clippers': (p) => `<rect x="74" y="58" width="52" height="108" rx="20" fill="${p.main}"/><rect x="70" y="40" width="60" height="22" rx="3" fill="${p.dark}"/><path d="M74 40V30M84 40V30M94 40V30M104 40V30M114 40V30M124 40V30" stroke="${p.dark}" stroke-width="4"/><rect x="92" y="90" width="16" height="26" rx="6" fill="${p.dark}"/>`,
};
