/**
 * The console's own frame, with nothing of the shop's: its name and a link to the shop, the index picker, the
 * signed-in key and Sign out, the navigation between the screens this key may open, then the screen.
 */
import type { ReactNode } from 'react';
import type { ConsoleContextValue } from '../api/context.ts';
import { storeKey } from '../api/session.ts';
import type { ScreenEntry } from '../screens.ts';
import { followLink, screenHref } from './router.ts';

export function ConsoleFrame({ children, bar }: { children: ReactNode; bar?: ReactNode }) {
  return (
    <div className="vt-admin vt-console">
      <a className="vt-skip" href="#vt-console-main">
        Skip to the screen
      </a>
      <header className="vt-console-header">
        <h1 id="vt-console-title">Merchant console</h1>
        <a className="vt-console-shop" href="/">
          Open the shop
        </a>
        {bar}
      </header>
      <main id="vt-console-main" className="vt-console-main" aria-labelledby="vt-console-title">
        {children}
      </main>
    </div>
  );
}

export function SessionBar({ context }: { context: ConsoleContextValue }) {
  const { indexName, indexNames, setIndexName, access } = context;
  return (
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
      <span className="vt-admin-hint">{access.admin ? 'Admin API key' : `Key: ${[...access.acl].join(', ')}`}</span>
      <button type="button" onClick={() => storeKey(undefined)}>
        Sign out
      </button>
    </div>
  );
}

export function ScreenNav({ screens, current, indexName }: { screens: ScreenEntry[]; current: ScreenEntry; indexName: string }) {
  return (
    <nav className="vt-console-nav" aria-label="Console">
      {screens.map((screen) => {
        const href = screenHref(screen.path, indexName);
        return (
          <a key={screen.path} href={href} aria-current={screen === current ? 'page' : undefined} onClick={(event) => followLink(event, href)}>
            {screen.label}
          </a>
        );
      })}
    </nav>
  );
}
