import { readEnvironment } from '../config/env.ts';
import type { CliContext } from '../context.ts';
import { createApiClient, resolveAdminKey } from '../importer/client.ts';
import type { ApiClient, ConnectionOptions } from '../importer/client.ts';
import type { OptionSpecs, OptionValues } from './command.ts';
import { stringOption } from './command.ts';

/** Options shared by `import` and `export`: which server, which application, which key. */
export const connectionOptions: OptionSpecs = {
  url: { type: 'string' },
  'app-id': { type: 'string' },
  'api-key': { type: 'string' },
};

export const CONNECTION_HELP = `Connection:
  --url URL        Server to talk to (default $VITRINE_URL or http://localhost:3000; "algolia" = hosted Algolia)
  --app-id ID      Application ID (default $VITRINE_APP_ID or vitrine)
  --api-key KEY    Admin API key (default $VITRINE_ADMIN_API_KEY, else the key kept in $VITRINE_DATA_DIR)`;

/** Where the connection options point: the options, else the environment, else the local server's data folder. */
export function connectionSettings(values: OptionValues, ctx: CliContext): ConnectionOptions {
  const env = readEnvironment(ctx.env, ctx.cwd);
  return {
    url: stringOption(values, 'url') ?? env.url,
    appId: stringOption(values, 'app-id') ?? env.appId,
    apiKey: resolveAdminKey(stringOption(values, 'api-key'), env),
  };
}

export function connect(values: OptionValues, ctx: CliContext): ApiClient {
  return createApiClient(connectionSettings(values, ctx));
}
