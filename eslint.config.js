import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';

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
/**
 * The merchant console's layers, bottom to top (packages/console/DESIGN.md): pure helpers, the API seam and
 * session state, shared components, the screens (one folder each), then the frame and the screen registry.
 */
const CONSOLE_SRC = './packages/console/src';
const CONSOLE_LEVELS = [
  ['lib', ['lib']],
  ['api', ['api']],
  ['shared components', ['shared']],
  ['screens', ['screens']],
  ['shell', ['shell', 'screens.ts', 'ConsoleApp.tsx']],
];
const inConsole = (paths) => paths.map((path) => `${CONSOLE_SRC}/${path}`);
/** Each screen is a folder of its own (a new folder is a new zone): it imports no other screen. */
const CONSOLE_SCREENS = readdirSync(new URL('./packages/console/src/screens', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const consoleZones = [
  ...CONSOLE_LEVELS.map(([name, paths], i) => ({
    target: inConsole(paths),
    from: CONSOLE_LEVELS.slice(i + 1).flatMap(([, above]) => inConsole(above)),
    message: `The console's ${name} layer imports only its own layer and those below it (packages/console/DESIGN.md).`,
  })).filter((zone) => zone.from.length > 0),
  ...CONSOLE_SCREENS.map((screen) => ({
    target: inConsole([`screens/${screen}`]),
    from: inConsole(CONSOLE_SCREENS.filter((other) => other !== screen).map((other) => `screens/${other}`)),
    message: 'A console screen imports no other screen: what two screens share goes to shared/, api/ or lib/.',
  })),
  { target: CONSOLE_SRC, from: './packages/storefront', message: 'The console knows nothing of the storefront: the shop hands it its configuration.' },
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
  {
    // The merchant console (packages/console/DESIGN.md): lib → api → shared → screens → shell, each screen a
    // folder that imports no other screen; nothing of the storefront.
    files: ['packages/console/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: consoleZones }],
    },
  },
  {
    files: ['packages/console/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // The shop mounts the console through its package entry only, never a piece of it.
    files: ['packages/storefront/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@vitrine/console/*', '**/console/src/**'], message: 'The storefront reaches the console only through its entry, @vitrine/console.' }] }],
    },
  },
);
