import { StrictMode } from 'react';
import { ServerUrlContext } from '../lib/navigation.ts';
import { App } from './App.tsx';
import { ServicesContext } from './services.ts';
import type { Services } from './services.ts';

/** The whole shop, as the browser and the server render it (`serverUrl` only on the server). */
export function Root({ services, serverUrl = null }: { services: Services; serverUrl?: URL | null }) {
  return (
    <StrictMode>
      <ServerUrlContext.Provider value={serverUrl}>
        <ServicesContext.Provider value={services}>
          <App />
        </ServicesContext.Provider>
      </ServerUrlContext.Provider>
    </StrictMode>
  );
}
