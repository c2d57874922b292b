#!/usr/bin/env node
/**
 * `npm run pack`: builds Vitrine and writes one tarball of the `vitrine` command (`@vitrine/cli`) that
 * `npm install -g <tarball>` installs on a machine with Node.js alone: the compiled packages inside it, the
 * storefront already built, and the third-party packages they need declared as its dependencies, fetched from
 * the registry (and built, for better-sqlite3's native part) at install time.
 *
 * Vitrine's own packages go in `dist/node_modules/@vitrine/`, beside the command's compiled code, so that Node
 * finds them from it, and finds their third-party dependencies in the command's `node_modules/` one level up.
 * They are not npm's bundled dependencies: npm takes everything a bundled package depends on as part of the
 * bundle and installs none of it, native modules included.
 *
 *   node scripts/pack.mjs [--out DIR] [--no-build]
 *
 * Prints the tarball's path on its last line.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: root }, 'no-build': { type: 'boolean', default: false } } });
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** The packages inside the tarball besides the command's own, in dependency order. */
const BUNDLED = ['protocol', 'engine', 'demo', 'insights', 'server', 'storefront'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!values['no-build']) execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });

const stage = join(root, '.vitrine-tmp', 'pack');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

/** Copies a package's published files (its `files` list and package.json) to `to`. */
function copyPackage(from, to) {
  const manifest = readJson(join(from, 'package.json'));
  for (const entry of manifest.files ?? []) {
    const source = join(from, entry);
    if (!existsSync(source)) throw new Error(`${manifest.name}: "${entry}" is missing: was it built?`);
    cpSync(source, join(to, entry), { recursive: true, filter: (path) => !path.endsWith('.tsbuildinfo') });
  }
  return manifest;
}

/** Third-party runtime dependencies of every package inside, with one range each. */
const thirdParty = {};
function addDependencies(manifest) {
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (name.startsWith('@vitrine/')) continue;
    if (thirdParty[name] !== undefined && thirdParty[name] !== range) {
      throw new Error(`${name} is wanted as ${thirdParty[name]} and as ${range} (${manifest.name}): use one range`);
    }
    thirdParty[name] = range;
  }
}

/**
 * A manifest as published: development dependencies and scripts stay behind (nothing needs them at run time),
 * and so do the exports' `source` conditions (the sources are not inside).
 */
function published({ devDependencies: _dev, scripts: _scripts, exports, ...rest }) {
  const compiled = Object.fromEntries(Object.entries(exports).map(([path, { source: _source, ...conditions }]) => [path, conditions]));
  return { ...rest, exports: compiled };
}

const cli = copyPackage(join(root, 'packages', 'cli'), stage);
addDependencies(cli);
for (const name of BUNDLED) {
  const into = join(stage, 'dist', 'node_modules', '@vitrine', name);
  const manifest = copyPackage(join(root, 'packages', name), into);
  writeFileSync(join(into, 'package.json'), `${JSON.stringify(published(manifest), null, 2)}\n`);
  addDependencies(manifest);
}
const manifest = { ...published(cli), dependencies: Object.fromEntries(Object.entries(thirdParty).sort(([a], [b]) => a.localeCompare(b))) };
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

mkdirSync(values.out, { recursive: true });
const output = execFileSync(npm, ['pack', '--json', '--pack-destination', resolve(values.out)], { cwd: stage, encoding: 'utf8' });
const [{ filename, size, unpackedSize, entryCount }] = JSON.parse(output);
const tarball = join(resolve(values.out), filename);
console.log(`${entryCount} files, ${(size / 1e6).toFixed(1)} MB packed (${(unpackedSize / 1e6).toFixed(1)} MB unpacked)`);
console.log(tarball);
