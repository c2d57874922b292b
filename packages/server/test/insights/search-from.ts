/**
 * A search with the public key from a loopback address of its own: the server counts suggestions' users by
 * client address (issue 49), so tests that need several shoppers search from 127.0.0.2, 127.0.0.3...
 */
import { request as httpRequest } from 'node:http';
import { APP_ID, SEARCH_KEY } from '../../src/test-support.ts';

/** One search of `indexName` for `query` from `address`, as `userToken`; resolves to the status code. */
export function searchFrom(port: number, address: string, indexName: string, query: string, userToken: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1', port, localAddress: address, method: 'POST', path: `/1/indexes/${encodeURIComponent(indexName)}/query`,
        headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY, 'x-algolia-usertoken': userToken, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ query }));
  });
}
