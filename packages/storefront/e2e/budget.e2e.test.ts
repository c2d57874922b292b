/**
 * JS budget of the search page: the entry chunk and everything it imports statically, gzipped, must stay
 * within 200 KB. Product, cart, checkout pages and the merchant console are lazy chunks and don't count; search-insights is loaded
 * at startup, so it does. The build's brotli and gzip copies, which the server sends, must be those files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storefrontDistDir } from '../src/index.ts';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const budgetBytes = 200 * 1024;

function readManifest(): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(join(storefrontDistDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
}

/** Files the search page loads: the entry, its static imports, and the search-insights chunk loaded at boot. */
function searchPageFiles(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const dynamic of manifest['index.html']?.dynamicImports ?? []) {
    if (dynamic.includes('search-insights')) visit(dynamic);
  }
  return [...files].filter((file) => file.endsWith('.js'));
}

/** The stylesheets the search page links. */
function searchPageStyles(manifest: Record<string, ManifestChunk & { css?: string[] }>): string[] {
  return manifest['index.html']?.css ?? [];
}

describe('search page JS budget', () => {
  it(`stays within ${budgetBytes / 1024} KB gzipped`, () => {
    const manifest = readManifest();
    const files = searchPageFiles(manifest);
    expect(files.length).toBeGreaterThan(0);
    const sizes = files.map((file) => ({ file, gzip: gzipSync(readFileSync(join(storefrontDistDir, file)), { level: 9 }).length }));
    const total = sizes.reduce((sum, entry) => sum + entry.gzip, 0);
    console.log(`search page JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files.length} files`, sizes);
    expect(total).toBeLessThanOrEqual(budgetBytes);
  });

  it('keeps the product, cart, checkout pages and the merchant console out of the search page', () => {
    const manifest = readManifest();
    const files = searchPageFiles(manifest);
    expect(files.some((file) => /ProductPage|CartPage|CheckoutPage|ConsoleApp|Screen/.test(file))).toBe(false);
    // The console (@vitrine/console) and each of its screens are chunks of their own, loaded only under /admin.
    expect(Object.values(manifest).some((chunk) => /AnalyticsScreen/.test(chunk.file))).toBe(true);
    expect(Object.values(manifest).some((chunk) => /ConsoleApp/.test(chunk.file))).toBe(true);
  });

  it('writes brotli and gzip copies of the search page’s scripts and styles', () => {
    const manifest = readManifest();
    const files = [...searchPageFiles(manifest), ...searchPageStyles(manifest)];
    expect(files.some((file) => file.endsWith('.css'))).toBe(true);
    let raw = 0;
    let brotli = 0;
    for (const file of files) {
      const path = join(storefrontDistDir, file);
      const bytes = readFileSync(path);
      const br = readFileSync(`${path}.br`);
      expect(brotliDecompressSync(br).equals(bytes), file).toBe(true);
      expect(gunzipSync(readFileSync(`${path}.gz`)).equals(bytes), file).toBe(true);
      raw += bytes.length;
      brotli += br.length;
    }
    console.log(`search page JS and CSS: ${(raw / 1024).toFixed(1)} KB, ${(brotli / 1024).toFixed(1)} KB as brotli in ${files.length} files`);
  });
});
