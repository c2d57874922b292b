import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBanner } from './banner.ts';

describe('the start banner', () => {
  const info = { url: 'http://localhost:3000', withStorefront: true, appId: 'vitrine', searchApiKey: 'search-0123', dataDir: '/srv/shop/data' };

  it('never prints the admin key: it says where to find it (issue 49)', () => {
    const fromFile = formatBanner({ ...info, adminKeyFrom: 'file' });
    expect(fromFile).toContain(`Admin key   in ${join('/srv/shop/data', 'keys.json')} ("adminApiKey"; secret: it can change and delete every index)`);
    expect(fromFile).toContain('Search key  search-0123');
    const fromEnvironment = formatBanner({ ...info, adminKeyFrom: 'environment' });
    expect(fromEnvironment).toContain('Admin key   the value of VITRINE_ADMIN_API_KEY (secret: it can change and delete every index)');
  });
});
