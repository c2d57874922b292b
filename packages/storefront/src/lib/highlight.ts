/**
 * Highlighted values from the search API carry the tags they were asked for. The storefront asks for tags no
 * record can plausibly contain and splits on them, so highlighted text is rendered as React text nodes (escaped)
 * and never as HTML.
 */

export const highlightPreTag = '__vt-hl__';
export const highlightPostTag = '__/vt-hl__';

export interface HighlightPart {
  value: string;
  highlighted: boolean;
}

/** Splits a highlighted value into plain and highlighted parts; adjacent parts of one kind are merged. */
export function splitHighlight(value: string, preTag = highlightPreTag, postTag = highlightPostTag): HighlightPart[] {
  const parts: HighlightPart[] = [];
  const push = (text: string, highlighted: boolean) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.highlighted === highlighted) last.value += text;
    else parts.push({ value: text, highlighted });
  };
  let rest = value;
  while (rest.length > 0) {
    const start = rest.indexOf(preTag);
    if (start === -1) break;
    const end = rest.indexOf(postTag, start + preTag.length);
    // An opening tag without its closing one is text, as written.
    if (end === -1) break;
    push(rest.slice(0, start), false);
    push(rest.slice(start + preTag.length, end), true);
    rest = rest.slice(end + postTag.length);
  }
  push(rest, false);
  return parts;
}
