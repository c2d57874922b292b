import type { Draw, Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

/** A long-sleeved top with a closure down the front: buttons (shirts, blouses), a zip (jackets), none. */
function top(length: number, closure: 'buttons' | 'zip' | 'none', ribbed = false): Draw {
  const hem = 40 + length;
  const cuff = Math.min(hem, 150) - 10;
  return (p) =>
    `<path d="M70 40L34 56L22 ${cuff}l18 4L58 84V${hem}h84V84l18 ${cuff - 80}l18-4L166 56L130 40q-30 18-60 0z" fill="${p.main}"/>` +
    `<path d="M85 42q15 14 30 0" stroke="${p.dark}" stroke-width="5" fill="none"/>` +
    (closure === 'zip' ? `<path d="M100 52V${hem}" stroke="${p.dark}" stroke-width="4"/>` : '') +
    (closure === 'buttons' ? [70, 90, 110, 130].filter((y) => y < hem - 8).map((y) => `<circle cx="100" cy="${y}" r="3.5" fill="${p.dark}"/>`).join('') : '') +
    (ribbed ? `<path d="M60 ${hem - 6}h80" stroke="${p.dark}" stroke-width="8" stroke-dasharray="3 3"/>` : '');
}

/** Fashion: clothing, shoes, bags, accessories. */
export const fashionDrawings: Drawings = {
  dresses: shapes.dress,
  blouses: top(100, 'buttons'),
  skirts: (p) => `<path d="M70 56h60l26 104H44z" fill="${p.main}"/><rect x="70" y="50" width="60" height="12" rx="2" fill="${p.dark}"/><path d="M88 62l-8 98M112 62l8 98" stroke="${p.dark}" stroke-width="3" opacity="0.5"/>`,
  coats: top(128, 'buttons'),
  shirts: top(110, 'buttons'),
  trousers: shapes.trousers,
  jackets: top(104, 'zip'),
  sweaters: top(106, 'none', true),
  sneakers: shapes.shoe,
  boots: (p) => `<path d="M62 36h40v86q34 6 62 22v10H62z" fill="${p.main}"/><rect x="60" y="150" width="108" height="14" rx="5" fill="${p.dark}"/><rect x="62" y="36" width="40" height="10" fill="${p.dark}"/><path d="M102 60h-12M102 76h-12M102 92h-12" stroke="${p.light}" stroke-width="4"/>`,
  sandals: (p) => `<path d="M30 148q70-18 140 0v12q-70-10-140 0z" fill="${p.dark}"/><path d="M56 146q14-44 44-40q30 4 40 36" fill="none" stroke="${p.main}" stroke-width="12"/><path d="M96 106l-4 38" stroke="${p.main}" stroke-width="9"/>`,
  loafers: (p) => `<path d="M34 146v-30q40-20 80-6q34 12 54 26v10z" fill="${p.main}"/><rect x="32" y="144" width="138" height="12" rx="5" fill="${p.dark}"/><path d="M80 116q20 8 40 0" stroke="${p.dark}" stroke-width="6" fill="none"/>`,
  backpacks: (p) => `<path d="M80 48q20-28 40 0" stroke="${p.dark}" stroke-width="7" fill="none"/><rect x="54" y="44" width="92" height="122" rx="28" fill="${p.main}"/><rect x="68" y="108" width="64" height="44" rx="10" fill="${p.dark}"/><path d="M74 118h52" stroke="${p.light}" stroke-width="3"/>`,
  handbags: shapes.bag,
  'travel-bags': (p) => `<path d="M66 96q34-46 68 0" stroke="${p.dark}" stroke-width="8" fill="none"/><rect x="24" y="92" width="152" height="72" rx="30" fill="${p.main}"/><path d="M40 112h120" stroke="${p.dark}" stroke-width="4"/><rect x="24" y="120" width="16" height="24" rx="4" fill="${p.dark}"/><rect x="160" y="120" width="16" height="24" rx="4" fill="${p.dark}"/>`,
  wallets: (p) => `<rect x="36" y="66" width="128" height="84" rx="10" fill="${p.main}"/><path d="M112 92h52v34h-52a10 10 0 0 1 0-34z" fill="${p.dark}"/><circle cx="122" cy="109" r="5" fill="${p.light}"/><path d="M48 80h50" stroke="${p.light}" stroke-width="3"/>`,
  watches: shapes.watch,
  sunglasses: (p) => shapes.glasses({ ...p, main: '#2e3138' }).replace(/stroke="#2e3138"/g, `stroke="${p.main}"`),
  scarves: (p) => `<path d="M64 36h44v34q0 20 30 44l20 44-30 10-24-44q-40-30-40-64z" fill="${p.main}"/><path d="M68 52h36M66 64h40" stroke="${p.dark}" stroke-width="4"/><path d="M126 168l-4 10M134 165l-4 10M142 162l-4 10M150 159l-4 10" stroke="${p.dark}" stroke-width="3"/>`,
  belts: (p) => `<path d="M40 100a60 36 0 1 1 0 40" fill="none" stroke="${p.main}" stroke-width="18"/><rect x="24" y="96" width="34" height="48" rx="5" fill="none" stroke="${p.dark}" stroke-width="7"/><path d="M30 120h26" stroke="${p.dark}" stroke-width="4"/>`,
};
