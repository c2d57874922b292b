/** A screen's frame: heading, one-line purpose, and the body; and the notice for an API the server lacks. */
import type { ReactNode } from 'react';

export function Screen({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <section className="vt-console-screen" aria-labelledby="vt-console-screen-title">
      <h2 id="vt-console-screen-title">{title}</h2>
      <p className="vt-admin-hint">{intro}</p>
      {children}
    </section>
  );
}

/** A screen whose API the server answers 404 for: it says so instead of failing. */
export function Unavailable({ title, intro, what, endpoints }: { title: string; intro: string; what: string; endpoints: string }) {
  return (
    <Screen title={title} intro={intro}>
      <p className="vt-admin-empty" role="status">
        {what} are not available on this server (it answers 404 for Algolia’s {endpoints} endpoints).
      </p>
    </Screen>
  );
}

/** The row above a list: its search box and the buttons that start something new. */
export function ListToolbar({ label, query, onQuery, children }: { label: string; query: string; onQuery: (query: string) => void; children?: ReactNode }) {
  return (
    <div className="vt-console-inline">
      <input type="search" aria-label={label} placeholder={label} value={query} onChange={(event) => onQuery(event.target.value)} />
      {children}
    </div>
  );
}
