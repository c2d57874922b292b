/**
 * deleteBy (issue 49, item 3) over a real server with the official clients: a body without a filter, or of the
 * wrong type, is refused with a 400 and deletes nothing (it once emptied the index); each filter parameter of
 * the spec's `deleteByParams` the engine filters on still deletes what it matches.
 */
import { algoliasearch } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';
import { PRODUCTS, SETTINGS } from './catalogue.ts';

const NEEDS_FILTER = {
  status: 400,
  message:
    'deleteBy needs a filter: filters, facetFilters, numericFilters, tagFilters, aroundLatLng with aroundRadius, insideBoundingBox or insidePolygon (to delete every record, clear the index)',
};

describe('deleteBy refuses to run without a filter', () => {
  let fixture: TestServer;
  const records = PRODUCTS.map((p, i) => ({ ...p, _geoloc: { lat: 48 + i, lng: 2 + i } }));
  const v5 = () => algoliasearch(APP_ID, ADMIN_KEY, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  const count = async (indexName = 'products') => (await v5().searchSingleIndex({ indexName, searchParams: { hitsPerPage: 0 } })).nbHits;
  const raw = (body: string | undefined, contentType = 'application/json') =>
    fetch(`${fixture.url}/1/indexes/products/deleteByQuery`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body,
    }).then(async (response) => ({ status: response.status, body: await response.json() }));

  beforeAll(async () => {
    fixture = await startTestServer({ index: { name: 'products', settings: { ...SETTINGS, attributesForFaceting: [...SETTINGS.attributesForFaceting, 'name'] }, records } });
  });
  afterAll(() => fixture.close());

  it('answers 400 to bodies without a filter, and the index keeps every record', async () => {
    for (const body of [undefined, '{}', '[]', 'true', '"brand:Apple"', '12', 'null', '{"filters":""}', '{"filters":"   "}', '{"params":""}', '{"facetFilters":[]}',
      '{"facetFilters":[[]]}', '{"numericFilters":""}', '{"tagFilters":[]}', '{"query":"lamp"}', '{"aroundLatLng":"48, 2"}', '{"aroundRadius":1000}',
      '{"aroundLatLng":"48, 2","aroundRadius":"all"}', '{"insideBoundingBox":[]}', '{"insidePolygon":[]}']) {
      const answer = await raw(body);
      expect(answer.status, body).toBe(400);
      expect(Object.keys(answer.body).sort()).toEqual(['message', 'status']);
      expect(answer.body.status).toBe(400);
    }
    expect(await raw('{}')).toEqual({ status: 400, body: NEEDS_FILTER });
    expect(await raw('{"filters":""}')).toEqual({ status: 400, body: NEEDS_FILTER });
    expect(await raw('[]')).toEqual({ status: 400, body: { status: 400, message: 'Invalid body: deleteBy takes a JSON object of filters' } });
    await expect(v5().deleteBy({ indexName: 'products', deleteByParams: {} })).rejects.toMatchObject({ status: 400, message: NEEDS_FILTER.message });
    const v4 = algoliasearchV4(APP_ID, ADMIN_KEY, { hosts: [{ url: fixture.host, protocol: 'http' }] }).initIndex('products');
    await expect(v4.deleteBy({})).rejects.toMatchObject({ status: 400, message: NEEDS_FILTER.message });
    expect(await count()).toBe(PRODUCTS.length);
  });

  it('type-checks each filter parameter', async () => {
    for (const body of ['{"filters":3}', '{"filters":["brand:Apple"]}', '{"facetFilters":3}', '{"facetFilters":{"brand":"Apple"}}', '{"numericFilters":true}',
      '{"tagFilters":[3]}', '{"aroundLatLng":[48,2],"aroundRadius":1000}', '{"aroundLatLng":"48, 2","aroundRadius":"far"}', '{"insideBoundingBox":"north"}',
      '{"insidePolygon":[[1,2]]}']) {
      const answer = await raw(body);
      expect(answer.status, body).toBe(400);
      expect(Object.keys(answer.body).sort()).toEqual(['message', 'status']);
    }
    expect(await count()).toBe(PRODUCTS.length);
  });

  it('refuses the geo areas the engine does not filter on, rather than deleting every record', async () => {
    expect(await raw('{"insideBoundingBox":[[50.5,4.5,51.5,5.5]]}')).toEqual({
      status: 400,
      body: { status: 400, message: 'Invalid value for "insideBoundingBox": not supported by this server (the engine does not filter on it)' },
    });
    expect((await raw('{"insidePolygon":[[50,4,51,5,52,4]]}')).status).toBe(400);
    expect(await count()).toBe(PRODUCTS.length);
  });

  it('deletes what each kind of filter matches', async () => {
    const client = v5();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filters: 'brand:Apple' }, 'p5'],
      [{ facetFilters: [['color:gold']] }, 'p2'],
      [{ numericFilters: 'price>=300' }, 'p3'],
      [{ aroundLatLng: '48, 2', aroundRadius: 1000 }, 'p1'],
    ];
    let left = PRODUCTS.length;
    for (const [deleteByParams, gone] of cases) {
      const task = await client.deleteBy({ indexName: 'products', deleteByParams });
      await client.waitForTask({ indexName: 'products', taskID: task.taskID });
      left--;
      expect(await count(), JSON.stringify(deleteByParams)).toBe(left);
      await expect(client.getObject({ indexName: 'products', objectID: gone })).rejects.toMatchObject({ status: 404 });
    }
  });
});
