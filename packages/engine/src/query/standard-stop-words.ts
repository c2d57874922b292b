/**
 * Standard stop words per language: our own English list, short and made for product search (the packaged
 * English lists hold words such as "home" or "new" that shoppers search for), and the `stopword` package's
 * lists for the other languages it knows, keyed there by ISO 639-3 codes.
 */
import stopword from 'stopword';
import { normalizeText } from '../tokenize/normalize.ts';

/** Articles, pronouns, prepositions, conjunctions and auxiliaries: words that carry no product meaning. */
const ENGLISH: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves'
  ).split(' '),
);

/** ISO 639-1 (what Algolia's parameters use) → the package's key. */
const PACKAGE_KEYS: Record<string, string> = {
  af: 'afr', ar: 'ara', bg: 'bul', bn: 'ben', br: 'bre', ca: 'cat', cs: 'ces', da: 'dan', de: 'deu', el: 'ell',
  eo: 'epo', es: 'spa', et: 'est', eu: 'eus', fa: 'fas', fi: 'fin', fr: 'fra', ga: 'gle', gl: 'glg', gu: 'guj',
  ha: 'hau', he: 'heb', hi: 'hin', hr: 'hrv', hu: 'hun', hy: 'hye', id: 'ind', it: 'ita', ja: 'jpn', ko: 'kor',
  ku: 'kur', la: 'lat', lt: 'lit', lv: 'lav', mr: 'mar', ms: 'msa', my: 'mya', nb: 'nob', nl: 'nld', no: 'nob',
  pl: 'pol', pt: 'por', 'pt-br': 'porBr', ro: 'ron', ru: 'rus', sk: 'slk', sl: 'slv', so: 'som', st: 'sot',
  sv: 'swe', sw: 'swa', th: 'tha', tl: 'tgl', tr: 'tur', uk: 'ukr', ur: 'urd', vi: 'vie', yo: 'yor', zh: 'zho',
  zu: 'zul',
};

export const STOP_WORD_LANGUAGES: ReadonlySet<string> = new Set(['en', ...Object.keys(PACKAGE_KEYS)]);

const packaged = new Map<string, ReadonlySet<string>>();

/** The standard stop words of a language (normalised as query words are), empty for a language without any. */
export function standardStopWords(language: string): ReadonlySet<string> {
  if (language === 'en') return ENGLISH;
  let words = packaged.get(language);
  if (words === undefined) {
    const key = PACKAGE_KEYS[language];
    const list = key === undefined ? undefined : (stopword as unknown as Record<string, unknown>)[key];
    words = new Set(Array.isArray(list) ? list.filter((word): word is string => typeof word === 'string').map(normalizeText).filter((word) => word !== '' && !word.includes(' ')) : []);
    packaged.set(language, words);
  }
  return words;
}
