import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * The server's layers, bottom to top (docs/ARCHITECTURE.md): a file imports its own layer and those below it,
 * never one above nor a sibling on its own level (pages and routes both sit on search and know nothing of each
 * other). Tests are exempt (they drive the whole app); `test-support.ts` sits at the top.
 */
const SERVER_SRC = './packages/server/src';
const SERVER_LEVELS = [
  [['config and errors', ['config.ts', 'errors.ts', 'engine-errors.ts', 'keys-file.ts', 'process-memory.ts']]],
  [['http', ['http']]],
  [['storage', ['storage']]],
  [['auth', ['auth']]],
  [['search', ['search']]],
  [['embedders', ['embedders']]],
  [['pages', ['pages']], ['routes', ['routes']], ['observability', ['observability']]],
  [['app', ['app.ts']]],
  [['index', ['index.ts', 'test-support.ts']]],
];
/**
 * The storefront's layers, bottom to top: `lib` (services, formatting, search state, pure helpers) knows nothing
 * of components, routing or pages; components know nothing of routing or pages; `routing.ts` (URL ↔ search
 * state) is known only to the pages and the entry points.
 */
const STOREFRONT_SRC = './packages/storefront/src';
const STOREFRONT_LEVELS = [
  [['lib', ['lib']]],
  [['components', ['components']]],
  [['routing', ['routing.ts']]],
  [['app', ['app']]],
  [['entry points', ['ssr', 'main.tsx', 'index.ts']]],
];
/** How import-x reads the workspace: TypeScript sources parsed as such, packages resolved through node_modules. */
const importSettings = {
  'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
  'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
  // The workspace's packages resolve to their sources (`source` export condition), as in tests and type checks.
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'], conditionNames: ['source', 'types', 'import', 'node', 'default'] })],
};
/** no-restricted-paths zones for a package's ordered levels: no import from a sibling on its level nor from above. */
function layerZones(src, levels, owner) {
  const within = (paths) => paths.map((path) => `${src}/${path}`);
  return levels.flatMap((level, i) =>
    level.map(([name, paths]) => ({
      target: within(paths),
      from: [
        ...level.filter(([sibling]) => sibling !== name).flatMap(([, siblingPaths]) => within(siblingPaths)),
        ...levels.slice(i + 1).flat().flatMap(([, above]) => within(above)),
      ],
      message: `The ${owner}'s ${name} layer imports only its own layer and those below it (docs/ARCHITECTURE.md).`,
    })),
  ).filter((zone) => zone.from.length > 0);
}
const serverLayerZones = layerZones(SERVER_SRC, SERVER_LEVELS, 'server');

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-server/**', '**/dist-node/**', 'data/**', '**/coverage/**', '.vitrine-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip|todo)$/]", message: 'Every test must run: no .only/.skip/.todo.' },
      ],
    },
  },
  {
    // No import cycles in any package's source; the resolver follows the workspace's own packages too.
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['packages/server/src/**/*.ts', 'packages/insights/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...serverLayerZones,
            { target: './packages/insights', from: './packages/server', message: 'Insights is mounted by the server and knows nothing of it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/storefront/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones(STOREFRONT_SRC, STOREFRONT_LEVELS, 'storefront') }],
    },
  },
  {
    files: ['packages/storefront/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
