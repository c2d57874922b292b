/**
 * The answers of the Analytics API's no-result and no-click rates (`getNoResultsRate`, `getNoClickRate`) as
 * JSON Schemas, written from Algolia's analytics spec (api-clients-automation, `specs/analytics`: the two
 * operations and the `noResultsRate`, `noClickRate` and `noClickCount` definitions of its common parameters).
 * The analytics spec is not among the bundled fixtures `spec-validator.ts` reads, so these two operations,
 * whose rates are the spec's only non-nullable ones, are checked against these instead.
 */
const rate = { type: 'number', minimum: 0, maximum: 1 };
const count = { type: 'integer' };
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

function rateAnswer(countField: string, countSchema: object) {
  const fields = { rate, count, [countField]: countSchema };
  const required = ['rate', 'count', countField];
  return {
    type: 'object',
    additionalProperties: false,
    required: [...required, 'dates'],
    properties: {
      ...fields,
      dates: { type: 'array', items: { type: 'object', additionalProperties: false, required: [...required, 'date'], properties: { ...fields, date } } },
    },
  };
}

export const noResultsRateAnswer = rateAnswer('noResultCount', count);

/**
 * The spec gives `noClickCount` a minimum of 1: the definition is shared with the list of searches without
 * clicks, where each listed search has at least one. A rate over searches that were all clicked, or over none,
 * has 0 (Vitrine answers the count as it is, see docs/COMPATIBILITY.md).
 */
export const noClickRateAnswer = rateAnswer('noClickCount', { type: 'integer', minimum: 1 });
