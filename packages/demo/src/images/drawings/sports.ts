import type { Drawings } from '../palette.ts';
import { shapes } from '../shapes.ts';

const LIGHT_BEAM = '#fff4c2';

/** Sports & Outdoors: fitness, cycling, camping, team and water sports. */
export const sportsDrawings: Drawings = {
  'yoga-mats': (p) => `<rect x="34" y="96" width="118" height="56" rx="8" fill="${p.main}"/><ellipse cx="152" cy="124" rx="18" ry="28" fill="${p.dark}"/><ellipse cx="152" cy="124" rx="9" ry="15" fill="${p.main}"/><path d="M70 96v56M110 96v56" stroke="${p.dark}" stroke-width="5"/>`,
  dumbbells: shapes.dumbbell,
  'exercise-bikes': (p) => `<path d="M40 164h120" stroke="${p.dark}" stroke-width="10" stroke-linecap="round"/><circle cx="70" cy="128" r="26" fill="${p.dark}"/><circle cx="70" cy="128" r="10" fill="${p.light}"/><path d="M70 128L110 66M110 66l24 98M96 88h38l8-30" stroke="${p.main}" stroke-width="10" fill="none" stroke-linecap="round" stroke-linejoin="round"/><rect x="92" y="56" width="34" height="10" rx="5" fill="${p.dark}"/><path d="M134 56h18" stroke="${p.dark}" stroke-width="8" stroke-linecap="round"/>`,
  'resistance-bands': (p) => `<ellipse cx="86" cy="116" rx="56" ry="34" fill="none" stroke="${p.main}" stroke-width="12"/><ellipse cx="118" cy="100" rx="50" ry="28" fill="none" stroke="${p.dark}" stroke-width="9"/>`,
  bikes: shapes.bike,
  'bike-helmets': (p) => `<path d="M36 134a64 64 0 0 1 128 0z" fill="${p.main}"/><path d="M70 86l8 22M100 74v28M130 86l-8 22" stroke="${p.light}" stroke-width="7" stroke-linecap="round"/><path d="M34 134h132" stroke="${p.dark}" stroke-width="9" stroke-linecap="round"/><path d="M60 136q10 26 30 26" stroke="${p.dark}" stroke-width="4" fill="none"/>`,
  'bike-lights': (p) => `<path d="M126 96l58-22v76l-58-22z" fill="${LIGHT_BEAM}" opacity="0.8"/><rect x="50" y="88" width="72" height="48" rx="14" fill="${p.main}"/><circle cx="120" cy="112" r="18" fill="${LIGHT_BEAM}" stroke="${p.dark}" stroke-width="5"/><path d="M62 136v18h24v-18" fill="${p.dark}"/>`,
  tents: shapes.tent,
  'sleeping-bags': (p) => `<path d="M66 36q34-16 68 0l10 124q-44 16-88 0z" fill="${p.main}"/><ellipse cx="100" cy="54" rx="22" ry="13" fill="${p.dark}"/><path d="M126 70l6 84" stroke="${p.dark}" stroke-width="3" stroke-dasharray="4 3"/><path d="M70 90q30 8 60 0M66 124q34 8 70 0" stroke="${p.light}" stroke-width="3" fill="none"/>`,
  'camping-stoves': (p) => `<rect x="56" y="118" width="88" height="44" rx="8" fill="${p.main}"/><path d="M50 110h100M62 110v8M138 110v8" stroke="${p.dark}" stroke-width="6" stroke-linecap="round"/><path d="M88 108q-8-22 12-44q-2 18 12 24q4 12-2 20z" fill="#f08a3a"/><circle cx="100" cy="140" r="8" fill="${p.dark}"/>`,
  headlamps: (p) => `<ellipse cx="100" cy="96" rx="66" ry="38" fill="none" stroke="${p.dark}" stroke-width="12"/><rect x="72" y="104" width="56" height="42" rx="12" fill="${p.main}"/><circle cx="100" cy="125" r="14" fill="${LIGHT_BEAM}" stroke="${p.dark}" stroke-width="4"/>`,
  footballs: (p) => `<circle cx="100" cy="106" r="58" fill="${p.main}"/><path d="M100 84l21 15-8 25H87l-8-25z" fill="${p.dark}"/><path d="M100 84V50M121 99l32-10M113 124l20 26M87 124l-20 26M79 99l-32-10" stroke="${p.dark}" stroke-width="4"/>`,
  basketballs: shapes.ball,
  'tennis-rackets': (p) => `<ellipse cx="100" cy="70" rx="40" ry="50" fill="${p.light}" stroke="${p.main}" stroke-width="9"/><path d="M80 30v80M100 22v96M120 30v80M64 50h72M60 70h80M64 90h72" stroke="${p.dark}" stroke-width="1.5"/><path d="M100 120v50" stroke="${p.main}" stroke-width="12" stroke-linecap="round"/><path d="M100 140v28" stroke="${p.dark}" stroke-width="12"/>`,
  swimsuits: (p) => `<path d="M74 34h10q6 30 16 30t16-30h10q-2 40 8 66q-6 40-12 60H78q-6-20-12-60q10-26 8-66z" fill="${p.main}"/><path d="M74 130q26-14 52 0" stroke="${p.dark}" stroke-width="4" fill="none"/>`,
  'swim-goggles': (p) => `<path d="M30 104q70-30 140 0" stroke="${p.dark}" stroke-width="7" fill="none"/><ellipse cx="74" cy="110" rx="26" ry="18" fill="${p.main}" stroke="${p.dark}" stroke-width="5"/><ellipse cx="126" cy="110" rx="26" ry="18" fill="${p.main}" stroke="${p.dark}" stroke-width="5"/><path d="M100 108v4" stroke="${p.dark}" stroke-width="6"/><path d="M64 104l10-4M116 104l10-4" stroke="#ffffff" stroke-width="4" opacity="0.6"/>`,
  'paddle-boards': (p) => `<path d="M14 150q86-60 172-40q-80 70-172 40z" fill="${p.main}"/><path d="M40 140q70-36 130-28" stroke="${p.light}" stroke-width="5" fill="none"/><path d="M120 20l-30 130" stroke="${p.dark}" stroke-width="6" stroke-linecap="round"/><path d="M88 148l-6 22 14-2 4-18z" fill="${p.dark}"/>`,
};
