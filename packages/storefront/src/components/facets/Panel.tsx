import { useId } from 'react';
import type { ReactNode } from 'react';

/** A titled filter group; the heading labels the group for screen readers. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="vt-panel" aria-labelledby={id}>
      <h2 className="vt-panel-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}
