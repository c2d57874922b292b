/**
 * What `vitrine start` and `vitrine serve` print once the server is ready: where it is and how to reach it. The
 * admin key is not printed (a terminal's scrollback, a service's journal and a shared screen would keep it): the
 * banner says where it is, the keys file of the data folder or the environment variable that set it.
 */
import { join } from 'node:path';
import { KEYS_FILE } from '@vitrine/server';

export interface BannerInfo {
  url: string;
  withStorefront: boolean;
  appId: string;
  /** Where the admin key came from: `VITRINE_ADMIN_API_KEY`, or the keys file of the data folder. */
  adminKeyFrom: 'environment' | 'file';
  searchApiKey: string;
  dataDir: string;
}

export function formatBanner(info: BannerInfo): string {
  const rows: Array<[string, string]> = [];
  if (info.withStorefront) rows.push(['Storefront', `${info.url}/`]);
  rows.push(['API', `${info.url}/1/`], ['App ID', info.appId], ['Search key', info.searchApiKey]);
  const where = info.adminKeyFrom === 'environment' ? 'the value of VITRINE_ADMIN_API_KEY (' : `in ${join(info.dataDir, KEYS_FILE)} ("adminApiKey"; `;
  rows.push(['Admin key', `${where}secret: it can change and delete every index)`]);
  rows.push(['Data', info.dataDir]);
  return [
    '',
    `Vitrine is running at ${info.url}`,
    ...rows.map(([name, value]) => `  ${name.padEnd(11)} ${value}`),
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
