/**
 * Hosted Algolia cannot be reached from the tests: what is checked is that, without --to-url, the destination is
 * the official client built for the app id's own hosts (the same ones the storefront's hosted mode calls).
 */
import { describe, expect, it } from 'vitest';
import { destinationEndpoint } from './endpoints.ts';

describe('sync destination', () => {
  it("is hosted Algolia by default: the client calls the app id's hosts", () => {
    const endpoint = destinationEndpoint({ appId: 'ABC123XYZ', apiKey: 'admin-secret', url: undefined });
    const { hosts } = (endpoint.client as unknown as { transporter: { hosts: Array<{ url: string; accept: string; protocol: string }> } }).transporter;
    expect(hosts.map((host) => host.url).sort()).toEqual(
      ['ABC123XYZ-1.algolianet.com', 'ABC123XYZ-2.algolianet.com', 'ABC123XYZ-3.algolianet.com', 'ABC123XYZ-dsn.algolia.net', 'ABC123XYZ.algolia.net'],
    );
    expect(hosts.every((host) => host.protocol === 'https')).toBe(true);
    // Writes go to the main host and the fallbacks, as the official client arranges them.
    expect(hosts.filter((host) => host.accept !== 'read').map((host) => host.url)).toContain('ABC123XYZ.algolia.net');
    expect(endpoint.label).toBe('hosted Algolia (application ABC123XYZ)');
    expect(endpoint.identity).not.toContain('admin-secret');
  });

  it('is the server at --to-url when given', () => {
    const endpoint = destinationEndpoint({ appId: 'shop', apiKey: 'k', url: 'http://127.0.0.1:4000' });
    const { hosts } = (endpoint.client as unknown as { transporter: { hosts: Array<{ url: string; protocol: string }> } }).transporter;
    expect(hosts.map((host) => `${host.protocol}://${host.url}`)).toEqual(['http://127.0.0.1:4000']);
  });
});
