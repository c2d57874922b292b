/**
 * Every way of cutting a dotted path's segments into keys (`a.b.c`: `a.b.c`; `a.b`, `c`; `a`, `b.c`; `a`, `b`,
 * `c`), the longest first key first: the naive reading of paths through keys that hold dots, which tests and
 * the highlighting reference compare `attributes.ts` with. Not used by the engine itself.
 */
export function pathCuts(segments: readonly string[]): string[][] {
  if (segments.length === 0) return [[]];
  const out: string[][] = [];
  for (let end = segments.length; end >= 1; end--) {
    for (const rest of pathCuts(segments.slice(end))) out.push([segments.slice(0, end).join('.'), ...rest]);
  }
  return out;
}
