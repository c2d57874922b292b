import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;
/** Below this, the framing costs about what compression saves (the server's threshold for API answers too). */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside each emitted text file of 1 KB or
 * more, which the server sends to clients that accept them (`@fastify/static`'s `preCompressed`): the strongest
 * levels, paid once per build instead of per request. Vite's own files under `.vite/` are not served and skipped.
 */
export function precompress(): Plugin {
  let files: string[] = [];
  return {
    name: 'vitrine-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir!;
      files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite/')).map((file) => join(dir, file));
    },
    // After the bundler is done: brotli 11 of the main chunk takes seconds, which it would report as a slow plugin.
    async closeBundle() {
      await Promise.all(files.map(compressFile));
    },
  };
}

async function compressFile(path: string): Promise<void> {
  const bytes = await readFile(path);
  if (bytes.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzipAsync(bytes, { level: 9 }),
  ]);
  if (br.length < bytes.length) await writeFile(`${path}.br`, br);
  if (gz.length < bytes.length) await writeFile(`${path}.gz`, gz);
}
