/** What `vitrine start` and `vitrine serve` print once the server is ready: where it is and how to reach it. */
export interface BannerInfo {
  url: string;
  withStorefront: boolean;
  appId: string;
  adminApiKey: string;
  searchApiKey: string;
  dataDir: string;
}

export function formatBanner(info: BannerInfo): string {
  const rows: Array<[string, string]> = [];
  if (info.withStorefront) rows.push(['Storefront', `${info.url}/`]);
  rows.push(['API', `${info.url}/1/`], ['App ID', info.appId], ['Search key', info.searchApiKey]);
  rows.push(['Admin key', `${info.adminApiKey}  (secret: it can change and delete every index)`]);
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
