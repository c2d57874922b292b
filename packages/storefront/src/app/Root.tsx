import { StrictMode, useEffect } from 'react';
import { ServerUrlContext } from '../lib/navigation.ts';
import { App } from './App.tsx';
import { ServicesContext } from '../lib/services.ts';
import type { Services } from '../lib/services.ts';

/** The whole shop, as the browser and the server render it (`serverUrl` only on the server). */
export function Root({ services, serverUrl = null }: { services: Services; serverUrl?: URL | null }) {
  // `<html data-hydrated>` once the app is live (hydrated, or rendered in the browser): what a test or a
  // monitoring probe waits for before it clicks something only the app can handle.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
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
