/**
 * The searcher's country, for `/2/countries`: only from a header a trusted reverse proxy sets (Cloudflare's
 * `CF-IPCountry`, or `X-Country-Code` from a proxy with a geolocation module), and only when the request comes
 * from a proxy `trustProxy` names. There is no geolocation database offline; a header from anyone else is
 * ignored, as anyone can send it.
 */
import type { FastifyRequest } from 'fastify';
import proxyaddr from '@fastify/proxy-addr';

export const COUNTRY_HEADERS = ['cf-ipcountry', 'x-country-code'] as const;
/** ISO 3166-1 alpha-2; `XX` is Cloudflare's "unknown". */
const COUNTRY = /^[A-Z]{2}$/;

export type CountryReader = (request: FastifyRequest) => string | undefined;

/** Reads the country of requests whose immediate sender `trustProxy` trusts (as Fastify reads it: true, or addresses and ranges). */
export function countryReader(trustProxy: boolean | string | string[] | undefined): CountryReader {
  if (!trustProxy) return () => undefined;
  const trusted = trustProxy === true ? () => true : proxyaddr.compile(typeof trustProxy === 'string' ? trustProxy.split(',').map((part) => part.trim()) : trustProxy);
  return (request) => {
    const peer = request.socket.remoteAddress;
    if (peer === undefined || !trusted(peer, 0)) return undefined;
    for (const name of COUNTRY_HEADERS) {
      const value = request.headers[name];
      const code = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
      if (code !== undefined && COUNTRY.test(code) && code !== 'XX') return code;
    }
    return undefined;
  };
}
