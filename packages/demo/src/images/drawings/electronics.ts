import type { Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

/** Dark glass of screens and lenses, whatever the product colour. */
const GLASS = '#23272f';

/** Electronics: computers, phones and tablets, audio, TV and video, cameras. */
export const electronicsDrawings: Drawings = {
  laptops: shapes.laptop,
  'desktop-computers': (p) => `<rect x="22" y="44" width="110" height="74" rx="6" fill="${p.main}"/><rect x="29" y="51" width="96" height="60" fill="${GLASS}"/><rect x="71" y="118" width="12" height="28" fill="${p.dark}"/><rect x="52" y="144" width="50" height="8" rx="4" fill="${p.dark}"/><rect x="142" y="56" width="38" height="108" rx="5" fill="${p.main}"/><circle cx="161" cy="74" r="4" fill="${p.light}"/><path d="M150 96h22M150 104h22" stroke="${p.dark}" stroke-width="3"/>`,
  monitors: shapes.screen,
  keyboards: shapes.keyboard,
  smartphones: shapes.phone,
  tablets: (p) => `<rect x="44" y="34" width="112" height="140" rx="12" fill="${p.main}"/><rect x="52" y="42" width="96" height="124" rx="4" fill="${GLASS}"/><path d="M64 60l30-12" stroke="#ffffff" stroke-width="6" opacity="0.25" stroke-linecap="round"/>`,
  'phone-cases': (p) => `<rect x="68" y="26" width="64" height="134" rx="16" fill="${p.main}"/><rect x="76" y="34" width="26" height="34" rx="8" fill="${p.dark}"/><circle cx="84" cy="43" r="5" fill="${GLASS}"/><circle cx="94" cy="58" r="5" fill="${GLASS}"/><path d="M132 60v20" stroke="${p.dark}" stroke-width="4"/>`,
  chargers: (p) => `<path d="M86 54V32M114 54V32" stroke="${p.dark}" stroke-width="7" stroke-linecap="round"/><rect x="66" y="52" width="68" height="66" rx="12" fill="${p.main}"/><rect x="92" y="118" width="16" height="10" fill="${p.dark}"/><path d="M100 128q0 40-48 38" fill="none" stroke="${p.dark}" stroke-width="5" stroke-linecap="round"/>`,
  headphones: shapes.headphones,
  'bluetooth-speakers': (p) => `<rect x="30" y="84" width="140" height="74" rx="37" fill="${p.main}"/><rect x="52" y="96" width="96" height="50" rx="25" fill="${p.dark}"/><circle cx="76" cy="121" r="14" fill="${p.light}"/><circle cx="124" cy="121" r="14" fill="${p.light}"/><rect x="88" y="74" width="24" height="10" rx="4" fill="${p.dark}"/>`,
  soundbars: (p) => `<rect x="10" y="104" width="180" height="36" rx="14" fill="${p.main}"/><path d="M26 122h148" stroke="${p.dark}" stroke-width="14" stroke-dasharray="3 3"/><rect x="40" y="140" width="10" height="10" fill="${p.dark}"/><rect x="150" y="140" width="10" height="10" fill="${p.dark}"/>`,
  earbuds: (p) => `<rect x="40" y="126" width="120" height="40" rx="18" fill="${p.dark}"/><circle cx="76" cy="84" r="20" fill="${p.main}"/><rect x="68" y="90" width="14" height="52" rx="7" fill="${p.main}"/><circle cx="124" cy="84" r="20" fill="${p.main}"/><rect x="118" y="90" width="14" height="52" rx="7" fill="${p.main}"/><circle cx="76" cy="84" r="8" fill="${p.light}"/><circle cx="124" cy="84" r="8" fill="${p.light}"/>`,
  televisions: (p) => `<rect x="12" y="36" width="176" height="106" rx="5" fill="${p.main}"/><rect x="18" y="42" width="164" height="94" fill="${GLASS}"/><path d="M50 160l14-18M150 160l-14-18" stroke="${p.dark}" stroke-width="7" stroke-linecap="round"/>`,
  projectors: (p) => `<rect x="30" y="84" width="140" height="66" rx="12" fill="${p.main}"/><circle cx="72" cy="117" r="22" fill="${p.dark}"/><circle cx="72" cy="117" r="12" fill="${GLASS}"/><circle cx="68" cy="113" r="4" fill="#ffffff" opacity="0.6"/><path d="M110 100h44M110 112h44" stroke="${p.dark}" stroke-width="4"/><rect x="42" y="150" width="14" height="10" fill="${p.dark}"/><rect x="144" y="150" width="14" height="10" fill="${p.dark}"/>`,
  'streaming-players': (p) => `<rect x="30" y="112" width="90" height="44" rx="12" fill="${p.main}"/><circle cx="104" cy="134" r="4" fill="${p.light}"/><rect x="136" y="66" width="30" height="96" rx="14" fill="${p.dark}"/><circle cx="151" cy="90" r="9" fill="${p.main}"/><circle cx="151" cy="116" r="4" fill="${p.light}"/><circle cx="151" cy="132" r="4" fill="${p.light}"/>`,
  'digital-cameras': shapes.camera,
  'action-cameras': (p) => `<rect x="58" y="62" width="84" height="76" rx="12" fill="${p.main}"/><circle cx="116" cy="100" r="24" fill="${p.dark}"/><circle cx="116" cy="100" r="13" fill="${GLASS}"/><rect x="66" y="70" width="24" height="12" rx="3" fill="${p.dark}"/><rect x="66" y="56" width="18" height="6" fill="${p.dark}"/><path d="M90 138v18h20v-18" fill="${p.dark}"/>`,
  'camera-lenses': (p) => `<rect x="40" y="66" width="98" height="76" rx="6" fill="${p.main}"/><rect x="134" y="56" width="28" height="96" rx="6" fill="${p.dark}"/><path d="M62 66v76M76 66v76M90 66v76" stroke="${p.dark}" stroke-width="4"/><rect x="28" y="78" width="14" height="52" rx="3" fill="${p.dark}"/><ellipse cx="160" cy="104" rx="4" ry="40" fill="${GLASS}"/>`,
  tripods: (p) => `<path d="M100 72L54 166M100 72l46 94M100 72v94" stroke="${p.main}" stroke-width="7" stroke-linecap="round"/><rect x="80" y="46" width="40" height="26" rx="5" fill="${p.dark}"/><path d="M120 58h26" stroke="${p.dark}" stroke-width="6" stroke-linecap="round"/><path d="M76 118h48" stroke="${p.dark}" stroke-width="5"/>`,
};
