/**
 * @vitrine/protocol: the wire contract of Vitrine's Algolia-compatible API, written once and imported by the
 * engine, the server, the importer, the storefront and the tests.
 */
export type * from './records.ts';
export type * from './errors.ts';
export type * from './settings.ts';
export type * from './search-params.ts';
export type * from './search-response.ts';
export type * from './multi-query.ts';
export type * from './batch.ts';
export type * from './indices.ts';
export type * from './insights.ts';
export type * from './analytics.ts';
export type * from './recommend.ts';
export type * from './query-categorization.ts';
export type * from './personalization.ts';
export type * from './abtests.ts';
export type * from './rules.ts';
export type * from './dictionaries.ts';
export type * from './logs.ts';
export type * from './pages.ts';
export { userTokenCookie } from './pages.ts';
// Behaviour shared by the importers of the CLI and the console: pure, runs in Node and in browsers.
export * from './limits.ts';
export * from './csv-values.ts';
export * from './import-lines.ts';
export * from './import-records.ts';
export * from './import-csv.ts';
export * from './import-json-array.ts';
export * from './import-file.ts';
