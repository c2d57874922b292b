import { apiStatus, CliError, messageOf } from '../errors.ts';
import { createApiClient, HOSTED_ALGOLIA } from '../importer/client.ts';
import type { ApiClient } from '../importer/client.ts';

/** One side of a sync: the client, and how to name it in messages (never with its key). */
export interface Endpoint {
  client: ApiClient;
  /** "the source (http://localhost:3000)", "hosted Algolia (application ABC123)". */
  label: string;
  /** Identifies the application in the state file: app id and URL, no key. */
  identity: string;
  /** Options the user can correct when this side refuses the connection. */
  hint: string;
  apiKey: string;
}

/** The destination: hosted Algolia (the official client's hosts for the app id) unless `--to-url` names a server. */
export function destinationEndpoint(options: { appId: string; apiKey: string; url: string | undefined }): Endpoint {
  const url = options.url ?? HOSTED_ALGOLIA;
  const hosted = url === HOSTED_ALGOLIA;
  return {
    client: createApiClient({ url, appId: options.appId, apiKey: options.apiKey }),
    label: hosted ? `hosted Algolia (application ${options.appId})` : `the destination (${url}, application ${options.appId})`,
    identity: `${options.appId}@${url}`,
    hint: hosted ? "check --to-app-id and the destination's key (VITRINE_SYNC_API_KEY or --to-api-key-file)" : "check --to-url, --to-app-id and the destination's key (VITRINE_SYNC_API_KEY or --to-api-key-file)",
    apiKey: options.apiKey,
  };
}

export function sourceEndpoint(options: { url: string; appId: string; apiKey: string }): Endpoint {
  return {
    client: createApiClient(options),
    label: `the source (${options.url}, application ${options.appId})`,
    identity: `${options.appId}@${options.url}`,
    hint: 'check --url, --app-id and --api-key (or VITRINE_URL, VITRINE_APP_ID, VITRINE_ADMIN_API_KEY)',
    apiKey: options.apiKey,
  };
}

/** An error message with any key replaced, in case a server echoes one back. */
function withoutKeys(message: string, endpoints: Endpoint[]): string {
  let text = message;
  for (const { apiKey } of endpoints) if (apiKey.length >= 4) text = text.split(apiKey).join('***');
  return text;
}

/**
 * Checks that an endpoint answers and takes its key, before anything is written: a wrong app id or key stops the
 * sync here with a message that says which side and which options to fix.
 */
export async function checkAccess(endpoint: Endpoint): Promise<void> {
  try {
    await endpoint.client.listIndices({ hitsPerPage: 1 });
  } catch (error) {
    const status = apiStatus(error);
    if (status === 401 || status === 403) {
      throw new CliError(`${capitalise(endpoint.label)} refused the application ID or API key (HTTP ${status}): ${endpoint.hint}`);
    }
    if (status === undefined) {
      throw new CliError(`Cannot reach ${endpoint.label}: ${endpoint.hint}, and the network`);
    }
    throw explain(error, `${capitalise(endpoint.label)} answered with an error`, [endpoint]);
  }
}

/** Any other failure, as a CliError naming what was being done (no stack: the message says it all). */
export function explain(error: unknown, doing: string, endpoints: Endpoint[]): CliError {
  if (error instanceof CliError) return error;
  const status = apiStatus(error);
  return new CliError(`${doing}${status ? ` (HTTP ${status})` : ''}: ${withoutKeys(messageOf(error), endpoints)}`, { cause: error });
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
