/**
 * `/admin/...`: the merchant console (a lazy chunk; shoppers never download it). Sign in with the admin key or
 * a key with the needed ACLs; the console then offers only the screens and actions that key may use. It talks to
 * the server only through the official `algoliasearch` client, so it works the same against hosted Algolia.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useServices } from '../app/services.ts';
import { handleLinkClick } from '../lib/navigation.ts';
import type { ConsoleSection } from '../lib/navigation.ts';
import { createAdminClient } from '../lib/search-client.ts';
import type { AdminClient } from '../lib/search-client.ts';
import { can, describeError, resolveAccess, statusOf } from './access.ts';
import type { Access, Acl } from './access.ts';
import { ConsoleContext } from './context.ts';
import type { ConsoleContextValue } from './context.ts';
import { storeKey, useApiKey } from './session.ts';
import { ErrorAlert } from './ui.tsx';
import './console.css';

const screens: Record<ConsoleSection, { label: string; acl: Acl | 'admin' | null; load: () => Promise<{ default: React.ComponentType }> }> = {
  indices: { label: 'Indices', acl: 'listIndexes', load: () => import('./IndicesScreen.tsx') },
  records: { label: 'Records', acl: 'search', load: () => import('./RecordsScreen.tsx') },
  import: { label: 'Import', acl: 'addObject', load: () => import('./ImportScreen.tsx') },
  configuration: { label: 'Configuration', acl: 'settings', load: () => import('./ConfigurationScreen.tsx') },
  synonyms: { label: 'Synonyms', acl: 'settings', load: () => import('./SynonymsScreen.tsx') },
  rules: { label: 'Rules', acl: 'settings', load: () => import('./RulesScreen.tsx') },
  recommend: { label: 'Recommend rules', acl: 'settings', load: () => import('./RecommendRulesScreen.tsx') },
  keys: { label: 'API keys', acl: 'admin', load: () => import('./KeysScreen.tsx') },
  analytics: { label: 'Analytics', acl: 'analytics', load: () => import('../admin/AnalyticsPage.tsx') },
  activity: { label: 'Activity', acl: null, load: () => import('./ActivityScreen.tsx') },
};
const lazyScreens = Object.fromEntries(Object.entries(screens).map(([section, screen]) => [section, lazy(screen.load)])) as Record<ConsoleSection, React.LazyExoticComponent<React.ComponentType>>;

function allowed(access: Access, acl: Acl | 'admin' | null): boolean {
  if (acl === null) return true;
  return acl === 'admin' ? access.admin : can(access, acl);
}

type Session = { state: 'loading' } | { state: 'error'; message: string; refused: boolean } | { state: 'ready'; client: AdminClient; access: Access; apiKey: string };

function LoginForm() {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    // Handled here: a native submit would put the key in the URL as a GET parameter.
    event.preventDefault();
    if (value.trim() !== '') storeKey(value.trim());
  };
  return (
    <form className="vt-admin-key" method="post" action="" onSubmit={submit}>
      <label htmlFor="vt-console-key">Admin API key</label>
      <input id="vt-console-key" type="password" autoComplete="off" spellCheck={false} value={value} onChange={(event) => setValue(event.target.value)} required />
      <button type="submit" className="vt-primary">
        Sign in
      </button>
      <p className="vt-admin-hint">The admin key, or a key with the permissions you need. Kept in this browser tab only (session storage), sent in a request header.</p>
    </form>
  );
}

function initialIndex(fallback: string): string {
  return new URLSearchParams(window.location.search).get('index') || fallback;
}

export default function ConsolePage({ section }: { section: ConsoleSection }) {
  const { config } = useServices();
  const apiKey = useApiKey();
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [indexName, setIndexName] = useState(() => initialIndex(config.indexName));
  const [indexNames, setIndexNames] = useState<string[]>([]);
  const [indexListVersion, setIndexListVersion] = useState(0);

  useEffect(() => {
    document.title = `${screens[section].label} – Vitrine console`;
  }, [section]);

  useEffect(() => {
    if (!apiKey) return;
    let current = true;
    setSession({ state: 'loading' });
    createAdminClient(config, window.location, apiKey)
      .then(async (client) => ({ client, access: await resolveAccess(client, apiKey) }))
      .then(
        ({ client, access }) => current && setSession({ state: 'ready', client, access, apiKey }),
        (error: unknown) => {
          if (!current) return;
          const refused = statusOf(error) === 403 || statusOf(error) === 401;
          setSession({ state: 'error', refused, message: describeError(error, 'sign in') });
        },
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

  // The analytics dashboard keeps its own key form and errors (the same session key): it works with an analytics-only key.
  if (section === 'analytics' && !context) {
    const Analytics = lazyScreens.analytics;
    return <Analytics />;
  }
  if (!apiKey) {
    return (
      <section className="vt-admin vt-console" aria-labelledby="vt-console-title">
        <h1 id="vt-console-title">Merchant console</h1>
        <LoginForm />
      </section>
    );
  }
  if (!context) {
    return (
      <section className="vt-admin vt-console" aria-labelledby="vt-console-title">
        <h1 id="vt-console-title">Merchant console</h1>
        {session.state === 'error' ? <ErrorAlert message={session.message} /> : <p className="vt-loading" role="status">Signing in…</p>}
        {session.state === 'error' && <LoginForm />}
      </section>
    );
  }

  const Current = lazyScreens[section];
  const permitted = allowed(context.access, screens[section].acl);
  const visibleSections = (Object.keys(screens) as ConsoleSection[]).filter((name) => allowed(context.access, screens[name].acl));
  const href = (name: ConsoleSection) => `/admin/${name}?index=${encodeURIComponent(indexName)}`;
  return (
    <ConsoleContext.Provider value={context}>
      <section className="vt-admin vt-console" aria-labelledby="vt-console-title">
        <h1 id="vt-console-title">Merchant console</h1>
        <div className="vt-admin-controls">
          <label>
            Index{' '}
            <select value={indexName} onChange={(event) => setIndexName(event.target.value)}>
              {[...new Set([indexName, ...indexNames])].map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <span className="vt-admin-hint">{context.access.admin ? 'Admin API key' : `Key: ${[...context.access.acl].join(', ')}`}</span>
          <button type="button" onClick={() => storeKey(undefined)}>
            Sign out
          </button>
        </div>
        <nav className="vt-console-nav" aria-label="Console">
          {visibleSections.map((name) => (
            <a key={name} href={href(name)} aria-current={name === section ? 'page' : undefined} onClick={(event) => handleLinkClick(event, href(name))}>
              {screens[name].label}
            </a>
          ))}
        </nav>
        {permitted ? (
          <Suspense fallback={<p className="vt-loading">Loading…</p>}>
            <Current />
          </Suspense>
        ) : (
          <ErrorAlert message={`This key may not open ${screens[section].label}: it needs ${screens[section].acl === 'admin' ? 'the admin API key' : `the "${screens[section].acl}" permission (ACL)`}.`} />
        )}
      </section>
    </ConsoleContext.Provider>
  );
}
