/**
 * The console's screens, in the navigation's order: one line each. A screen is a folder under `screens/` whose
 * main file default-exports a component; it is loaded when first opened, and offered only to a key with `acl`
 * (`admin`: the admin key only; null: any key). The first one is the console's home (`/admin`).
 */
import type { ComponentType } from 'react';
import type { Acl } from './api/access.ts';

export interface ScreenEntry {
  /** Its address: `/admin/<path>`. */
  path: string;
  label: string;
  acl: Acl | 'admin' | null;
  load: () => Promise<{ default: ComponentType }>;
}

export const screens: ScreenEntry[] = [
  { path: 'indices', label: 'Indices', acl: 'listIndexes', load: () => import('./screens/indices/IndicesScreen.tsx') },
  { path: 'records', label: 'Records', acl: 'search', load: () => import('./screens/records/RecordsScreen.tsx') },
  { path: 'import', label: 'Import', acl: 'addObject', load: () => import('./screens/import/ImportScreen.tsx') },
  { path: 'configuration', label: 'Configuration', acl: 'settings', load: () => import('./screens/configuration/ConfigurationScreen.tsx') },
  { path: 'embedders', label: 'Embedders', acl: 'settings', load: () => import('./screens/embedders/EmbeddersScreen.tsx') },
  { path: 'synonyms', label: 'Synonyms', acl: 'settings', load: () => import('./screens/synonyms/SynonymsScreen.tsx') },
  { path: 'rules', label: 'Rules', acl: 'settings', load: () => import('./screens/rules/RulesScreen.tsx') },
  { path: 'recommend', label: 'Recommend rules', acl: 'settings', load: () => import('./screens/recommend-rules/RecommendRulesScreen.tsx') },
  { path: 'keys', label: 'API keys', acl: 'admin', load: () => import('./screens/keys/KeysScreen.tsx') },
  { path: 'personalization', label: 'Personalization', acl: 'recommendation', load: () => import('./screens/personalization/PersonalizationScreen.tsx') },
  { path: 'learning', label: 'Learning', acl: 'search', load: () => import('./screens/learning/LearningScreen.tsx') },
  { path: 'analytics', label: 'Analytics', acl: 'analytics', load: () => import('./screens/analytics/AnalyticsScreen.tsx') },
  { path: 'abtests', label: 'A/B tests', acl: 'analytics', load: () => import('./screens/abtests/AbTestsScreen.tsx') },
  { path: 'activity', label: 'Activity', acl: null, load: () => import('./screens/activity/ActivityScreen.tsx') },
];
