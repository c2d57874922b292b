import { useId } from 'react';
import type { ReactNode } from 'react';

/**
 * A titled filter group; the heading labels the group for screen readers. `hidden` hides the group but keeps
 * its widget mounted (unmounting a widget would drop its refinement from the search).
 */
export function Panel({ title, hidden = false, children }: { title: string; hidden?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <section className="vt-panel" aria-labelledby={id} hidden={hidden}>
      <h2 className="vt-panel-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}
