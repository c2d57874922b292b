/**
 * The personalization client of a console session: the admin client's application, key, caches and timeouts;
 * on a Vitrine server its hosts too (the API is on the same origin), on hosted Algolia the client's own region host.
 */
import type { PersonalizationClient } from 'algoliasearch';
import type { AdminClient, ConsoleConfig } from '../../api/client.ts';

export function personalizationClient(client: AdminClient, provider: ConsoleConfig['provider']): PersonalizationClient {
  const { hosts, timeouts, requestsCache, responsesCache, hostsCache } = client.transporter;
  const shared = { authMode: 'WithinHeaders' as const, timeouts, requestsCache, responsesCache, hostsCache };
  return client.initPersonalization({ region: 'us', options: provider === 'vitrine' ? { ...shared, hosts } : shared });
}
