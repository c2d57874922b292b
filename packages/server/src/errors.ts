/**
 * The server's error catalogue: every error a caller can cause has a code, an HTTP status and a message
 * template (`%s` placeholders filled in order). The body is always Algolia's `{ message, status }`, which the
 * official clients parse. Caller mistakes are 4xx: the clients retry 5xx answers on other hosts.
 */
import type { ErrorBody } from '@vitrine/protocol';

export const errorCatalogue = {
  // Routing and transport.
  ROUTE_NOT_FOUND: { status: 404, template: 'Path not found: %s %s' },
  METHOD_NOT_ALLOWED: { status: 405, template: 'Method not allowed: %s %s' },
  MALFORMED_JSON: { status: 400, template: 'Invalid JSON body: %s' },
  JSON_TOO_DEEP: { status: 400, template: 'Invalid JSON body: nesting deeper than %s levels' },
  BODY_TOO_LARGE: { status: 413, template: 'Request body too large: the limit is %s bytes' },
  UNSUPPORTED_ENCODING: { status: 415, template: 'Unsupported content-encoding: %s' },
  MALFORMED_GZIP: { status: 400, template: 'Invalid gzip-encoded body' },
  // Authentication and authorisation (Algolia's own texts where it has one).
  INVALID_CREDENTIALS: { status: 403, template: 'Invalid Application-ID or API key' },
  ACL_DENIED: { status: 403, template: 'Method not allowed with this API key' },
  INDEX_NOT_ALLOWED: { status: 403, template: 'Index not allowed with this API key' },
  REFERER_NOT_ALLOWED: { status: 403, template: 'Referer not allowed with this API key' },
  SOURCE_NOT_ALLOWED: { status: 403, template: 'Source IP not allowed with this API key' },
  // Algolia's firewall drops such connections unanswered (no wording to follow): the body says what to change.
  SOURCE_REFUSED: { status: 403, template: 'Source IP not allowed: this application accepts requests only from its allowed sources (/1/security/sources)' },
  KEY_EXPIRED: { status: 403, template: 'The API key has expired' },
  USER_TOKEN_MISMATCH: { status: 403, template: 'userToken not allowed with this API key' },
  TOO_MANY_QUERIES: { status: 429, template: 'Too many requests: the key allows %s queries per IP per hour' },
  TOO_MANY_FAILED_AUTH: { status: 429, template: 'Too many failed authentications from this IP address' },
  TOO_MANY_PENDING_TASKS: { status: 429, template: 'Too many pending tasks (%s): retry later' },
  TOO_MANY_EVENTS: { status: 429, template: 'Too many events: at most %s per minute per %s' },
  NOT_READY: { status: 503, template: 'Not ready: the indexes are still being loaded' },
  EMBEDDER_UNAVAILABLE: { status: 503, template: 'Embedder "%s" could not embed the query: %s. Send the query\'s vector in "vector", or search without "hybrid"' },
  SHUTTING_DOWN: { status: 503, template: 'The server is shutting down' },
  BACKUP_UNDER_WAY: { status: 409, template: 'A backup is already under way (to %s): wait for it to end' },
  BACKUP_REFUSED: { status: 400, template: 'Cannot back up to %s: %s' },
  // Resources.
  INDEX_NOT_FOUND: { status: 404, template: 'Index does not exist' },
  OBJECT_NOT_FOUND: { status: 404, template: 'ObjectID does not exist' },
  TASK_NOT_FOUND: { status: 404, template: 'Task does not exist' },
  SYNONYM_NOT_FOUND: { status: 404, template: 'Synonym set does not exist' },
  RULE_NOT_FOUND: { status: 404, template: 'ObjectID does not exist' },
  KEY_NOT_FOUND: { status: 404, template: 'Key does not exist' },
  SOURCE_NOT_FOUND: { status: 404, template: 'Source does not exist: %s' },
  ABTEST_NOT_FOUND: { status: 404, template: 'A/B test %s does not exist' },
  // Validation.
  MISSING_PARAMETER: { status: 400, template: 'Missing parameter: %s' },
  INVALID_PARAMETER: { status: 400, template: 'Invalid value for "%s": %s' },
  INVALID_BODY: { status: 400, template: 'Invalid body: %s' },
  INVALID_INDEX_NAME: { status: 400, template: 'indexName is not valid' },
  QUERY_TOO_LONG: { status: 400, template: 'Query too long: %s bytes, the limit is %s' },
  PARAMETER_TOO_LONG: { status: 400, template: 'Parameter too long: "%s" is %s bytes, the limit is %s' },
  TOO_MANY_PARAMETERS: { status: 400, template: 'Too many parameters: %s, the limit is %s per search' },
  LIST_TOO_LONG: { status: 400, template: 'Parameter too long: "%s" has %s entries, the limit is %s' },
  RESPONSE_TOO_LARGE: {
    status: 400,
    template: 'Response too large: the limit is %s bytes; ask for fewer hits, facet values, or highlighted or snippeted attributes',
  },
  RECORD_TOO_BIG: {
    status: 400,
    template: 'Record at the position %s objectID=%s is too big size=%s/%s bytes. Please have a look at https://www.algolia.com/doc/guides/sending-and-managing-data/prepare-your-data/in-depth/index-and-records-size-and-usage-limitations/#record-size-limits',
  },
  INVALID_RECORD: { status: 400, template: 'Invalid record at the position %s: %s' },
  INVALID_RULE: { status: 400, template: 'Invalid rule at the position %s: %s' },
  INVALID_SOURCE: { status: 400, template: 'Invalid source %s: %s' },
  INVALID_ABTEST: { status: 400, template: 'Invalid A/B test: %s' },
  ABTEST_REFUSED: { status: 400, template: 'A/B test %s: %s' },
  SOURCES_LOCK_OUT: {
    status: 400,
    template: 'This change would refuse the address making the request (%s): keep a source that includes it, or make the change from the server\'s own machine (loopback), where the admin key is always allowed',
  },
  INVALID_OBJECT_ID: { status: 400, template: 'objectID must be a non-empty string (at the position %s)' },
  REPLICA_WRITE: { status: 400, template: 'Cannot write records of the replica index "%s": write to its primary "%s"' },
  INVALID_REPLICA: { status: 400, template: 'Invalid replicas: %s' },
  SAME_INDEX: { status: 400, template: 'Source and destination indices must be different' },
  DELETE_BY_WITHOUT_FILTER: {
    status: 400,
    template:
      'deleteBy needs a filter: filters, facetFilters, numericFilters, tagFilters, aroundLatLng with aroundRadius, insideBoundingBox or insidePolygon (to delete every record, clear the index)',
  },
  INVALID_EVENT: { status: 422, template: 'Invalid event at the position %s: %s' },
  ENGINE: { status: 400, template: '%s' },
  INTERNAL: { status: 500, template: 'Internal error' },
} as const satisfies Record<string, { status: number; template: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  toBody(): ErrorBody {
    return { message: this.message, status: this.status };
  }
}

export function createError(code: ErrorCode, ...args: Array<string | number>): ApiError {
  const { status, template } = errorCatalogue[code];
  let next = 0;
  const message = template.replace(/%s/g, () => String(args[next++] ?? ''));
  return new ApiError(code, status, message);
}
