/**
 * The merchant console (`/admin/...`), a lazy chunk of the shop's build that shoppers never download. Sign in
 * with the admin key or a key with the needed ACLs; the console then offers only the screens and actions that key
 * may use. It talks to the server only through the official `algoliasearch` client, so it works the same against
 * hosted Algolia. The host page hands it the shop's configuration and nothing else.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import { can, describeError, resolveAccess } from './api/access.ts';
import type { Access, Acl } from './api/access.ts';
import { createAdminClient, createShopClient } from './api/client.ts';
import type { AdminClient, ConsoleConfig } from './api/client.ts';
import { ConsoleContext, SetupContext } from './api/context.ts';
import type { ConsoleContextValue } from './api/context.ts';
import { storeKey, useApiKey } from './api/session.ts';
import { screens } from './screens.ts';
import type { ScreenEntry } from './screens.ts';
import { SignInForm } from './shared/SignInForm.tsx';
import { ErrorAlert } from './shared/status.tsx';
import { ConsoleFrame, ScreenNav, SessionBar } from './shell/ConsoleLayout.tsx';
import { indexInAddress, useScreenPath } from './shell/router.ts';
import './console.css';

export type { ConsoleConfig } from './api/client.ts';

const lazyScreens = new Map<ScreenEntry, LazyExoticComponent<ComponentType>>(screens.map((screen) => [screen, lazy(screen.load)]));

function allowed(access: Access, acl: Acl | 'admin' | null): boolean {
  if (acl === null) return true;
  return acl === 'admin' ? access.admin : can(access, acl);
}

type Session = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; client: AdminClient; access: Access; apiKey: string };

const signInHint = 'The admin key, or a key with the permissions you need. Kept in this browser tab only (session storage), sent in a request header.';

export default function ConsoleApp({ config }: { config: ConsoleConfig }) {
  const path = useScreenPath();
  const screen = screens.find((entry) => entry.path === path) ?? (path === '' ? screens[0] : undefined);
  const apiKey = useApiKey();
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [indexName, setIndexName] = useState(() => indexInAddress() ?? config.indexName);
  const [indexNames, setIndexNames] = useState<string[]>([]);
  const [indexListVersion, setIndexListVersion] = useState(0);
  const setup = useMemo(() => ({ config, shop: createShopClient(config, window.location) }), [config]);

  useEffect(() => {
    document.title = `${screen?.label ?? 'Not found'} – Vitrine console`;
  }, [screen]);

  useEffect(() => {
    if (!apiKey) return;
    let current = true;
    setSession({ state: 'loading' });
    createAdminClient(config, window.location, apiKey)
      .then(async (client) => ({ client, access: await resolveAccess(client, apiKey) }))
      .then(
        ({ client, access }) => current && setSession({ state: 'ready', client, access, apiKey }),
        (error: unknown) => current && setSession({ state: 'error', message: describeError(error, 'sign in') }),
      );
    return () => {
      current = false;
    };
  }, [apiKey, config]);

  // A session belongs to the key it was opened with: signing out (or in with another key) drops it at once.
  const ready = session.state === 'ready' && session.apiKey === apiKey ? session : undefined;
  useEffect(() => {
    if (!ready) return;
    let current = true;
    if (!can(ready.access, 'listIndexes')) {
      setIndexNames([indexName]);
      return;
    }
    ready.client.listIndices({}).then(
      (response) => current && setIndexNames(response.items.map((item) => item.name)),
      () => current && setIndexNames([indexName]),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the list is reloaded on sign-in and on request only
  }, [ready, indexListVersion]);

  const reloadIndexNames = useCallback(() => setIndexListVersion((n) => n + 1), []);
  const context = useMemo<ConsoleContextValue | undefined>(
    () => (ready ? { client: ready.client, access: ready.access, indexName, setIndexName, indexNames, reloadIndexNames } : undefined),
    [ready, indexName, indexNames, reloadIndexNames],
  );

  let body: ReactNode | undefined;
  if (!screen) {
    body = <ErrorAlert message={`The console has no screen at ${window.location.pathname}.`} />;
  } else if (screen.path === 'analytics' && !context) {
    // The analytics screen keeps its own key form and errors (the same session key): it works with an analytics-only key.
    const Analytics = lazyScreens.get(screen)!;
    body = (
      <Suspense fallback={<p className="vt-loading">Loading…</p>}>
        <Analytics />
      </Suspense>
    );
  } else if (!apiKey) {
    body = <SignInForm button="Sign in" hint={signInHint} onKey={storeKey} />;
  } else if (!context) {
    body =
      session.state === 'error' ? (
        <>
          <ErrorAlert message={session.message} />
          <SignInForm button="Sign in" hint={signInHint} onKey={storeKey} />
        </>
      ) : (
        <p className="vt-loading" role="status">
          Signing in…
        </p>
      );
  }
  if (body || !screen || !context) {
    return (
      <SetupContext.Provider value={setup}>
        <ConsoleFrame>{body}</ConsoleFrame>
      </SetupContext.Provider>
    );
  }

  const Current = lazyScreens.get(screen)!;
  const visible = screens.filter((entry) => allowed(context.access, entry.acl));
  return (
    <SetupContext.Provider value={setup}>
      <ConsoleContext.Provider value={context}>
        <ConsoleFrame bar={<SessionBar context={context} />}>
          <ScreenNav screens={visible} current={screen} indexName={indexName} />
          {allowed(context.access, screen.acl) ? (
            <Suspense fallback={<p className="vt-loading">Loading…</p>}>
              <Current />
            </Suspense>
          ) : (
            <ErrorAlert message={`This key may not open ${screen.label}: it needs ${screen.acl === 'admin' ? 'the admin API key' : `the "${screen.acl}" permission (ACL)`}.`} />
          )}
        </ConsoleFrame>
      </ConsoleContext.Provider>
    </SetupContext.Provider>
  );
}

