/**
 * Product names for the objectIDs of the "top hits" table, read with the shop's own search client (getObjects):
 * an operator recognises "Acme Desk Lamp", not "4711". Without access (another index, a missing record) the
 * objectID is shown instead.
 */
import { useEffect, useState } from 'react';
import { useSetup } from '../../api/context.ts';

export function useProductNames(indexName: string, objectIDs: readonly string[]): Map<string, string> {
  const { shop: searchClient } = useSetup();
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const key = objectIDs.join('\u0000');
  useEffect(() => {
    if (objectIDs.length === 0) return;
    let current = true;
    searchClient
      .customPost({ path: '1/indexes/*/objects', body: { requests: objectIDs.map((objectID) => ({ indexName, objectID, attributesToRetrieve: ['name'] })) } })
      .then(
        (response) => {
          const results = (response as { results?: Array<{ objectID?: unknown; name?: unknown } | null> }).results ?? [];
          const found = new Map<string, string>();
          for (const record of results) {
            if (record && typeof record.objectID === 'string' && typeof record.name === 'string') found.set(record.objectID, record.name);
          }
          if (current) setNames(found);
        },
        () => {
          // Names are a convenience: the table shows objectIDs instead.
        },
      );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the list's contents
  }, [searchClient, indexName, key]);
  return names;
}
