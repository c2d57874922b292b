/**
 * The sitemap generated once per catalogue change rather than per request: its paths read every record (at
 * 10,000 products, 60–90 ms of a request, any client able to ask for it as often as it likes), and the XML
 * built from them grows with the catalogue. The paths are kept until the next write is applied
 * (`invalidate`); the texts built from them (the index, each page, per origin) beside them, a few at a time.
 */

/**
 * Texts kept (an origin's index and pages, each plain and compressed as brotli and gzip): a bound, since a few
 * origins (public URLs) and every page could be asked for.
 */
const MAX_TEXTS = 48;

export class SitemapCache {
  private paths: Promise<readonly string[]> | null = null;
  /** Bumped by each invalidation: a text built from paths read before it is not kept. */
  private version = 0;
  /** Least recently used first (a Map iterates in insertion order). */
  private readonly texts = new Map<string, string | Buffer>();

  constructor(private readonly generate: () => Promise<readonly string[]>) {}

  /** The catalogue changed: the next request generates the paths again. */
  invalidate(): void {
    this.version++;
    this.paths = null;
    this.texts.clear();
  }

  /**
   * The text `key` names (what it depends on besides the paths: origin, page, encoding), built by `build` from
   * the paths when not kept (a string, or its bytes compressed); `undefined` (no such page) is not kept, so asking
   * for missing pages evicts nothing.
   */
  async text<T extends string | Buffer>(key: string, build: (paths: readonly string[]) => T | undefined | Promise<T | undefined>): Promise<T | undefined> {
    const kept = this.texts.get(key) as T | undefined;
    if (kept !== undefined) {
      this.texts.delete(key);
      this.texts.set(key, kept);
      return kept;
    }
    const version = this.version;
    const text = await build(await this.currentPaths());
    if (text !== undefined && version === this.version) {
      this.texts.set(key, text);
      if (this.texts.size > MAX_TEXTS) this.texts.delete(this.texts.keys().next().value!);
    }
    return text;
  }

  /** The paths, generated once however many requests ask meanwhile; a failure is not kept (the next request tries again). */
  private currentPaths(): Promise<readonly string[]> {
    if (this.paths === null) {
      const pending = this.generate();
      this.paths = pending;
      pending.catch(() => {
        if (this.paths === pending) this.paths = null;
      });
    }
    return this.paths;
  }
}
