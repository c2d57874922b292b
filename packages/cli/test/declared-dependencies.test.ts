/**
 * Every package of the workspace uses what its manifest declares. A dependency nothing imports is installed by
 * every `npm ci` for nothing, and a runtime one of the command (or of a package inside its tarball) by every
 * user's `npm install -g`. An `@types/x` package counts as used when `x` is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'package.json')));
/** Built output, installed packages and scratch files: not what the package's own code imports. */
const SKIPPED = new Set(['node_modules', 'dist', 'dist-server', '.vitrine-tmp']);
const CODE = /\.(c|m)?[jt]sx?$|\.css$|\.html$/;

function codeOf(dir: string): string {
  const texts: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) texts.push(codeOf(path));
    else if (CODE.test(entry.name)) texts.push(readFileSync(path, 'utf8'));
  }
  return texts.join('\n');
}

/** The package an `@types/…` package types: `@types/react-dom` → `react-dom`, `@types/babel__core` → `@babel/core`. */
function typed(name: string): string {
  const bare = name.slice('@types/'.length);
  return bare.includes('__') ? `@${bare.replace('__', '/')}` : bare;
}

/** Whether `code` names the module `name` or a path inside it, in quotes (an import, a require, a config). */
function names(code: string, name: string): boolean {
  if (name === 'node') return /['"]node:/.test(code);
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`['"\`]${escaped}(/[^'"\`]*)?['"\`]`).test(code);
}

describe('declared dependencies', () => {
  it.each(packages)('packages/%s imports every package its manifest declares', (name) => {
    const dir = join(root, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    // The workspace's own packages are links, not installs (the command declares those its tarball carries).
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})].filter((dependency) => !dependency.startsWith('@vitrine/'));
    const code = codeOf(dir);
    const unused = declared.filter((dependency) => !names(code, dependency.startsWith('@types/') ? typed(dependency) : dependency));
    expect(unused).toEqual([]);
  });
});
