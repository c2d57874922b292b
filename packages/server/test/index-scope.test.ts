/**
 * A key scoped to some indexes stays inside them, whatever relation between indexes a write goes through:
 * replicas named in settings (added, virtual, removed), `forwardToReplicas`, copy/move, multi-index batches,
 * deleting a primary or a replica, `*` in the path. Refusals are 403 with Algolia's body and leave everything as
 * it was (the whole request is checked first). Also: empty index restrictions open no index, `DELETE
 * /1/usertokens` needs a key for every index, and invalid index names are refused on every write. Over a socket,
 * with the official v5 client where a caller would use it.
 */
import { request as httpRequest } from 'node:http';
import { algoliasearch } from 'algoliasearch';
import algoliasearchV4 from 'algoliasearch-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, securedApiKey, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';

const INDEX_NOT_ALLOWED = { status: 403, message: 'Index not allowed with this API key' };
const INVALID_NAME = { status: 400, message: 'indexName is not valid' };
const RECORDS = [
  { objectID: 'a', name: 'oak table', price: 10 },
  { objectID: 'b', name: 'oak chair', price: 20 },
];

describe('index scope of keys', () => {
  let t: TestServer;
  const hosts = () => [{ url: t.host, protocol: 'http' as const, accept: 'readWrite' as const }];
  const v5 = (key: string) => algoliasearch(APP_ID, key, { hosts: hosts() });
  const admin = () => v5(ADMIN_KEY);

  /** An index with RECORDS, and `settings` set after them (replicas included), written with the admin key. */
  const seed = async (name: string, settings: Record<string, unknown> = {}) => {
    await admin().saveObjects({ indexName: name, objects: RECORDS, waitForTasks: true });
    const task = await admin().setSettings({ indexName: name, indexSettings: { attributesForFaceting: ['price'], ...settings } });
    await admin().waitForTask({ indexName: name, taskID: task.taskID });
  };
  /** What the admin key sees of an index: its settings and record IDs, or null when it does not exist. */
  const state = async (name: string) => {
    const settings = await t.call('GET', `/1/indexes/${encodeURIComponent(name)}/settings`);
    if (settings.status === 404) return null;
    const browse = await t.call('POST', `/1/indexes/${encodeURIComponent(name)}/browse`, {});
    return { settings: settings.body, ids: (browse.body.hits as Array<{ objectID: string }>).map((hit) => hit.objectID).sort() };
  };
  /** A write with `key`; on success, waits for it to be applied. */
  const write = async (method: string, path: string, body: unknown, key: string) => {
    const response = await t.call(method, path, body, key);
    if (response.status === 200 && typeof response.body?.taskID === 'number') await t.server.store.waitForTask(response.body.taskID);
    return response;
  };
  const refused = (response: { status: number; body: unknown }) => expect(response).toEqual({ status: 403, body: INDEX_NOT_ALLOWED });
  const invalid = (response: { status: number; body: unknown }) => expect(response).toEqual({ status: 400, body: INVALID_NAME });

  beforeAll(async () => {
    t = await startTestServer({ config: { insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 } } });
  });
  afterAll(() => t.close());

  describe('replicas and forwardToReplicas', () => {
    let sandboxKey: string;
    beforeAll(async () => {
      await seed('victim');
      await seed('sandbox');
      sandboxKey = await t.createKey({ acl: ['settings', 'editSettings', 'search'], indexes: ['sandbox'] });
    });

    it('refuses naming an index outside the key as a replica, through the official client, and leaves it intact', async () => {
      const before = await state('victim');
      await expect(v5(sandboxKey).setSettings({ indexName: 'sandbox', indexSettings: { replicas: ['victim'] }, forwardToReplicas: true })).rejects.toMatchObject({ status: 403, message: INDEX_NOT_ALLOWED.message });
      refused(await write('PUT', '/1/indexes/sandbox/settings', { replicas: ['virtual(victim)'] }, sandboxKey));
      // A replica that does not exist yet is refused as well: the key could not create it directly either.
      refused(await write('PUT', '/1/indexes/sandbox/settings', { replicas: ['elsewhere'] }, sandboxKey));
      expect(await state('victim')).toEqual(before);
      expect(before!.ids).toEqual(['a', 'b']);
      expect(await state('elsewhere')).toBeNull();
      expect((await state('sandbox'))!.settings.replicas).toBeUndefined();
    });

    it('checks the whole request first: nothing of a refused settings change applies', async () => {
      refused(await write('PUT', '/1/indexes/sandbox/settings', { hitsPerPage: 5, replicas: ['sandbox_sorted', 'victim'] }, sandboxKey));
      expect((await state('sandbox'))!.settings.hitsPerPage).toBe(20);
      expect(await state('sandbox_sorted')).toBeNull();
    });

    it('goes through the `*` index name too, which is checked like any other', async () => {
      refused(await write('PUT', '/1/indexes/*/settings', { replicas: ['victim'] }, sandboxKey));
      refused(await write('PUT', '/1/indexes/%2A/settings', { hitsPerPage: 3 }, sandboxKey));
      expect(await state('*')).toBeNull();
      expect((await state('victim'))!.ids).toEqual(['a', 'b']);
    });

    it('lets a key manage replicas inside its scope', async () => {
      const key = await t.createKey({ acl: ['settings', 'editSettings', 'search'], indexes: ['shop*'] });
      await seed('shop');
      const client = v5(key);
      const task = await client.setSettings({ indexName: 'shop', indexSettings: { replicas: ['shop_price_asc', 'virtual(shop_virtual)'] } });
      await client.waitForTask({ indexName: 'shop', taskID: task.taskID });
      const forwarded = await client.setSettings({ indexName: 'shop', indexSettings: { hitsPerPage: 7 }, forwardToReplicas: true });
      await client.waitForTask({ indexName: 'shop', taskID: forwarded.taskID });
      expect(await client.getSettings({ indexName: 'shop_price_asc' })).toMatchObject({ primary: 'shop', hitsPerPage: 7 });
      expect(await client.getSettings({ indexName: 'shop_virtual' })).toMatchObject({ primary: 'shop', hitsPerPage: 7 });
      const synonyms = await client.saveSynonym({ indexName: 'shop', objectID: 's1', synonymHit: { objectID: 's1', type: 'synonym', synonyms: ['oak', 'wood'] }, forwardToReplicas: true });
      await client.waitForTask({ indexName: 'shop', taskID: synonyms.taskID });
      expect((await client.searchSingleIndex({ indexName: 'shop_price_asc', searchParams: { query: 'wood' } })).nbHits).toBe(2);
      // A replica's own settings need the replica only, not its primary.
      const replicaKey = await t.createKey({ acl: ['settings', 'editSettings', 'search'], indexes: ['shop_price_asc'] });
      const own = await write('PUT', '/1/indexes/shop_price_asc/settings', { customRanking: ['asc(price)'] }, replicaKey);
      expect(own.status).toBe(200);
    });

    describe('a primary whose replicas are partly outside the key', () => {
      let key: string;
      beforeAll(async () => {
        await seed('team', { replicas: ['team_sorted', 'other_sorted', 'virtual(other_virtual)'] });
        key = await t.createKey({ acl: ['settings', 'editSettings', 'search', 'addObject', 'deleteObject', 'deleteIndex'], indexes: ['team*'] });
      });

      it('refuses removing replicas outside the key from the list, or emptying it', async () => {
        refused(await write('PUT', '/1/indexes/team/settings', { replicas: ['team_sorted'] }, key));
        refused(await write('PUT', '/1/indexes/team/settings', { replicas: null }, key));
        refused(await write('PUT', '/1/indexes/team/settings', { replicas: [] }, key));
        expect((await state('team'))!.settings.replicas).toEqual(['team_sorted', 'other_sorted', 'virtual(other_virtual)']);
        expect((await state('other_sorted'))!.settings.primary).toBe('team');
      });

      it('refuses forwarding settings and synonyms to them, and applies the same change without forwarding', async () => {
        refused(await write('PUT', '/1/indexes/team/settings?forwardToReplicas=true', { hitsPerPage: 9 }, key));
        const synonym = { objectID: 'syn', type: 'synonym', synonyms: ['oak', 'wood'] };
        refused(await write('PUT', '/1/indexes/team/synonyms/syn?forwardToReplicas=true', synonym, key));
        refused(await write('POST', '/1/indexes/team/synonyms/batch?forwardToReplicas=true', [synonym], key));
        refused(await write('POST', '/1/indexes/team/synonyms/clear?forwardToReplicas=true', undefined, key));
        await expect(v5(key).saveSynonyms({ indexName: 'team', synonymHit: [synonym as never], forwardToReplicas: true })).rejects.toMatchObject({ status: 403 });
        expect((await state('team'))!.settings.hitsPerPage).toBe(20);
        expect((await state('other_sorted'))!.settings.hitsPerPage).toBe(20);
        expect((await t.call('GET', '/1/indexes/team/synonyms/syn')).status).toBe(404);

        expect((await write('PUT', '/1/indexes/team/settings', { hitsPerPage: 9 }, key)).status).toBe(200);
        expect((await write('PUT', '/1/indexes/team/synonyms/syn', synonym, key)).status).toBe(200);
        refused(await write('DELETE', '/1/indexes/team/synonyms/syn?forwardToReplicas=true', undefined, key));
        expect((await state('team'))!.settings.hitsPerPage).toBe(9);
        expect((await state('other_sorted'))!.settings.hitsPerPage).toBe(20);
      });

      it('refuses deleting the primary (its replicas would be detached), by route and by batch', async () => {
        refused(await write('DELETE', '/1/indexes/team', undefined, key));
        refused(await write('POST', '/1/indexes/team/batch', { requests: [{ action: 'delete' }] }, key));
        refused(await write('POST', '/1/indexes/*/batch', { requests: [{ action: 'delete', indexName: 'team' }] }, key));
        expect((await state('team'))!.ids).toEqual(['a', 'b']);
        expect((await state('other_sorted'))!.settings.primary).toBe('team');
      });

      it('refuses deleting a replica with a key that does not cover its primary', async () => {
        const replicaKey = await t.createKey({ acl: ['deleteIndex', 'search'], indexes: ['other_*'] });
        refused(await write('DELETE', '/1/indexes/other_sorted', undefined, replicaKey));
        refused(await write('DELETE', '/1/indexes/other_virtual', undefined, replicaKey));
        expect((await state('team'))!.settings.replicas).toEqual(['team_sorted', 'other_sorted', 'virtual(other_virtual)']);
        // The key of the primary's family deletes its own replica.
        expect((await write('DELETE', '/1/indexes/team_sorted', undefined, key)).status).toBe(200);
        expect((await state('team'))!.settings.replicas).toEqual(['other_sorted', 'virtual(other_virtual)']);
      });
    });
  });

  describe('copy, move and multi-index batches', () => {
    let key: string;
    beforeAll(async () => {
      await seed('mine');
      await seed('theirs');
      key = await t.createKey({ acl: ['search', 'addObject', 'deleteObject', 'deleteIndex', 'settings', 'editSettings'], indexes: ['mine*'] });
    });

    it('refuses copying or moving to or from an index outside the key', async () => {
      await expect(v5(key).operationIndex({ indexName: 'mine', operationIndexParams: { operation: 'copy', destination: 'theirs' } })).rejects.toMatchObject({ status: 403 });
      refused(await write('POST', '/1/indexes/mine/operation', { operation: 'move', destination: 'theirs' }, key));
      refused(await write('POST', '/1/indexes/mine/operation', { operation: 'copy', destination: 'theirs', scope: ['settings'] }, key));
      refused(await write('POST', '/1/indexes/theirs/operation', { operation: 'copy', destination: 'mine_copy' }, key));
      refused(await write('POST', '/1/indexes/theirs/operation', { operation: 'move', destination: 'mine_copy' }, key));
      refused(await write('POST', '/1/indexes/*/operation', { operation: 'move', destination: 'mine_copy' }, key));
      expect((await state('theirs'))!.ids).toEqual(['a', 'b']);
      expect(await state('mine_copy')).toBeNull();
      expect((await write('POST', '/1/indexes/mine/operation', { operation: 'copy', destination: 'mine_copy' }, key)).status).toBe(200);
      expect((await state('mine_copy'))!.ids).toEqual(['a', 'b']);
    });

    it('refuses a multi-index batch with one target outside the key, applying none of it', async () => {
      const requests = [
        { action: 'addObject', indexName: 'mine', body: { objectID: 'c', name: 'new' } },
        { action: 'clear', indexName: 'theirs' },
      ];
      await expect(v5(key).multipleBatch({ requests: requests as never })).rejects.toMatchObject({ status: 403 });
      expect((await state('mine'))!.ids).toEqual(['a', 'b']);
      expect((await state('theirs'))!.ids).toEqual(['a', 'b']);
      const allowed = await write('POST', '/1/indexes/*/batch', { requests: [requests[0], { action: 'deleteObject', indexName: 'mine_copy', body: { objectID: 'a' } }] }, key);
      expect(allowed.status).toBe(200);
      await t.server.store.waitForTask(allowed.body.taskID.mine);
      expect((await state('mine'))!.ids).toEqual(['a', 'b', 'c']);
      expect((await state('mine_copy'))!.ids).toEqual(['b']);
    });

    it('keeps replaceAllObjects working for a key over the index and its temporary copies', async () => {
      await v5(key).replaceAllObjects({ indexName: 'mine', objects: [{ objectID: 'z', name: 'only' }] });
      expect((await state('mine'))!.ids).toEqual(['z']);
    });
  });

  describe('empty index restrictions', () => {
    beforeAll(async () => {
      await seed('products');
    });

    it('opens no index with a secured key whose restrictIndices is empty (v5 and v4 clients, and by hand)', async () => {
      const v4 = algoliasearchV4(APP_ID, SEARCH_KEY, { hosts: [{ url: t.host, protocol: 'http' }] });
      const keys = [
        securedApiKey(SEARCH_KEY, { restrictIndices: [] }),
        securedApiKey(SEARCH_KEY, { restrictIndices: [''] }),
        securedApiKey(SEARCH_KEY, { restrictIndices: '' }),
        v4.generateSecuredApiKey(SEARCH_KEY, { restrictIndices: [] }),
        v4.generateSecuredApiKey(SEARCH_KEY, { restrictIndices: [''] }),
        v4.generateSecuredApiKey(SEARCH_KEY, { restrictIndices: '' as never }),
      ];
      for (const key of keys) {
        refused(await t.call('POST', '/1/indexes/products/query', {}, key));
        refused(await t.call('POST', '/1/indexes/*/queries', { requests: [{ indexName: 'products' }] }, key));
        refused(await t.call('GET', '/1/indexes/products/a', undefined, key));
      }
      // Absent: the parent's scope (all indexes for the search-only key); present: only what it names.
      expect((await t.call('POST', '/1/indexes/products/query', {}, securedApiKey(SEARCH_KEY, { filters: 'price > 0' }))).status).toBe(200);
      expect((await t.call('POST', '/1/indexes/products/query', {}, securedApiKey(SEARCH_KEY, { restrictIndices: ['', 'products'] }))).status).toBe(200);
    });

    it('opens no index with a stored key whose indexes is [""], every index with []', async () => {
      const none = await t.createKey({ acl: ['search', 'listIndexes'], indexes: [''] });
      refused(await t.call('POST', '/1/indexes/products/query', {}, none));
      expect((await t.call('GET', '/1/indexes', undefined, none)).body.items).toEqual([]);
      // A secured key made from it opens nothing either, whatever it names.
      refused(await t.call('POST', '/1/indexes/products/query', {}, securedApiKey(none, { restrictIndices: ['products'] })));
      const all = await t.createKey({ acl: ['search'], indexes: [] });
      expect((await t.call('POST', '/1/indexes/products/query', {}, all)).status).toBe(200);
    });
  });

  describe('DELETE /1/usertokens/{userToken}', () => {
    it('needs a key that may touch every index: the events of every index go', async () => {
      const scoped = await t.createKey({ acl: ['deleteObject'], indexes: ['products'] });
      const unrestricted = await t.createKey({ acl: ['deleteObject'] });
      refused(await t.call('DELETE', '/1/usertokens/someone', undefined, scoped));
      expect((await t.call('DELETE', '/1/usertokens/someone', undefined, unrestricted)).status).toBe(204);
    });
  });

  describe('index names', () => {
    const longName = 'é'.repeat(129); // 258 bytes
    const longest = 'x'.repeat(256);

    it('refuses `*`, empty and over-long names, and control characters, on every route that writes an index', async () => {
      const bad = ['*', longName, 'tab\tname', ' '];
      for (const name of bad) {
        const path = `/1/indexes/${encodeURIComponent(name)}`;
        invalid(await write('PUT', `${path}/settings`, { hitsPerPage: 5 }, ADMIN_KEY));
        invalid(await write('POST', `${path}`, { name: 'x' }, ADMIN_KEY));
        invalid(await write('PUT', `${path}/obj`, { name: 'x' }, ADMIN_KEY));
        invalid(await write('POST', `${path}/obj/partial`, { name: 'x' }, ADMIN_KEY));
        invalid(await write('DELETE', `${path}/obj`, undefined, ADMIN_KEY));
        invalid(await write('POST', `${path}/clear`, undefined, ADMIN_KEY));
        invalid(await write('PUT', `${path}/synonyms/s`, { objectID: 's', type: 'synonym', synonyms: ['a', 'b'] }, ADMIN_KEY));
        invalid(await write('POST', '/1/indexes/*/batch', { requests: [{ action: 'addObject', indexName: name, body: { name: 'x' } }] }, ADMIN_KEY));
        // A blank replica name is refused earlier, as an invalid replica list.
        const replicaRefusal = name.trim() === '' ? (r: { status: number }) => expect(r.status).toBe(400) : invalid;
        replicaRefusal(await write('PUT', '/1/indexes/valid_primary/settings', { replicas: [name] }, ADMIN_KEY));
        replicaRefusal(await write('PUT', '/1/indexes/valid_primary/settings', { replicas: [`virtual(${name})`] }, ADMIN_KEY));
        if (name !== '*') invalid(await write('POST', `${path}/batch`, { requests: [{ action: 'addObject', body: { name: 'x' } }] }, ADMIN_KEY));
      }
      invalid(await write('PUT', '/1/indexes//settings', { hitsPerPage: 5 }, ADMIN_KEY));
      await seed('source');
      for (const destination of bad) invalid(await write('POST', '/1/indexes/source/operation', { operation: 'copy', destination }, ADMIN_KEY));
      await expect(admin().setSettings({ indexName: '*', indexSettings: { hitsPerPage: 5 } })).rejects.toMatchObject({ status: 400, message: INVALID_NAME.message });
      const names = (await admin().listIndices()).items.map((item) => item.name);
      for (const name of [...bad, '', 'valid_primary']) expect(names).not.toContain(name);
    });

    it('refuses `.` and `..`, which name folders rather than indexes, in bodies and in paths sent as they are', async () => {
      // fetch (and the official clients) resolve dot segments in a path: node:http sends it untouched, as curl --path-as-is.
      const raw = (method: string, path: string, body: unknown) =>
        new Promise<{ status: number; body: unknown }>((resolve, reject) => {
          const request = httpRequest({ host: '127.0.0.1', port: t.server.port, method, path, headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY } }, (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
          });
          request.on('error', reject);
          request.end(body === undefined ? undefined : JSON.stringify(body));
        });
      await seed('dots_source');
      for (const name of ['.', '..']) {
        invalid(await write('POST', '/1/indexes/*/batch', { requests: [{ action: 'addObject', indexName: name, body: { name: 'x' } }] }, ADMIN_KEY));
        invalid(await write('POST', '/1/indexes/dots_source/operation', { operation: 'copy', destination: name }, ADMIN_KEY));
        invalid(await write('PUT', '/1/indexes/dots_source/settings', { replicas: [name] }, ADMIN_KEY));
        invalid(await write('PUT', '/1/indexes/dots_source/settings', { replicas: [`virtual(${name})`] }, ADMIN_KEY));
        for (const encoded of [name, name.replaceAll('.', '%2E')]) {
          invalid(await raw('PUT', `/1/indexes/${encoded}/settings`, { hitsPerPage: 5 }));
          invalid(await raw('POST', `/1/indexes/${encoded}/batch`, { requests: [{ action: 'addObject', body: { name: 'x' } }] }));
          invalid(await raw('PUT', `/1/indexes/${encoded}/obj`, { name: 'x' }));
        }
      }
      const names = (await admin().listIndices()).items.map((item) => item.name);
      expect(names).not.toContain('.');
      expect(names).not.toContain('..');
      // Dots inside a name are fine.
      expect((await write('PUT', '/1/indexes/...x/settings', { hitsPerPage: 5 }, ADMIN_KEY)).status).toBe(200);
    });

    it('accepts the names clients use: dots, dashes, spaces, other scripts, 256 bytes', async () => {
      for (const name of ['prod.en-US_v2', 'with space', 'produits_été', '商品', longest, '__proto__']) {
        const response = await write('PUT', `/1/indexes/${encodeURIComponent(name)}/settings`, { hitsPerPage: 5 }, ADMIN_KEY);
        expect(response.status, name).toBe(200);
        expect((await state(name))!.settings.hitsPerPage).toBe(5);
      }
    });
  });
});
