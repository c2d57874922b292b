import { describe, expect, it } from 'vitest';
import { checkRecord, parseRecordJson, recordLabel } from './record-json.ts';

describe('parseRecordJson', () => {
  it('accepts an object and keeps its fields', () => {
    expect(parseRecordJson('{"objectID":"1","name":"Lamp"}')).toEqual({ ok: true, record: { objectID: '1', name: 'Lamp' } });
  });
  it('refuses invalid JSON, arrays, scalars and bad objectIDs with a reason', () => {
    expect(parseRecordJson('{"name":')).toMatchObject({ ok: false, reason: expect.stringContaining('Not valid JSON') });
    expect(parseRecordJson('[1]')).toEqual({ ok: false, reason: 'A record must be a JSON object' });
    expect(parseRecordJson('3')).toEqual({ ok: false, reason: 'A record must be a JSON object' });
    expect(checkRecord({ objectID: '' })).toEqual({ ok: false, reason: 'objectID must be a non-empty string' });
    expect(checkRecord({ objectID: { a: 1 } })).toEqual({ ok: false, reason: 'objectID must be a non-empty string' });
  });
  it('labels a record by its name or title', () => {
    expect(recordLabel({ title: 'T' })).toBe('T');
    expect(recordLabel({ price: 3 })).toBe('');
  });
});
