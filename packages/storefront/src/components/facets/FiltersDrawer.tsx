import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode, RefObject } from 'react';
import { useStats } from 'react-instantsearch';
import { useFormat } from '../../lib/format.ts';

const focusableSelector = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DrawerState {
  open: boolean;
  setOpen(open: boolean): void;
  openerRef: RefObject<HTMLButtonElement | null>;
}

const DrawerContext = createContext<DrawerState | null>(null);

function useDrawer(): DrawerState {
  const state = useContext(DrawerContext);
  if (!state) throw new Error('FiltersDrawer and FiltersOpener need <FiltersDrawerScope>');
  return state;
}

/** The drawer's state, shared by its opener (in the results' toolbar) and the drawer itself (the sidebar). */
export function FiltersDrawerScope({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const state = useMemo(() => ({ open, setOpen, openerRef }), [open]);
  return <DrawerContext.Provider value={state}>{children}</DrawerContext.Provider>;
}

/**
 * The "Filters" button of narrow screens, in the toolbar above the results beside sort and page size: on a
 * phone's home page it comes after the categories and featured products, with the other search controls.
 */
export function FiltersOpener() {
  const { open, setOpen, openerRef } = useDrawer();
  return (
    <button ref={openerRef} type="button" className="vt-filters-opener" aria-expanded={open} aria-controls="vt-filters" onClick={() => setOpen(true)}>
      Filters
    </button>
  );
}

/**
 * On wide screens a sidebar; on narrow ones a drawer opened by a "Filters" button (`FiltersOpener`). The filters stay mounted
 * while the drawer is closed (only hidden), so refinements survive closing it. Opening moves focus into the
 * drawer, Escape or the buttons close it, and closing returns focus to the button that opened it.
 */
export function FiltersDrawer({ children }: { children: ReactNode }) {
  const { open, setOpen, openerRef } = useDrawer();
  const closeRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const { nbHits } = useStats();
  const format = useFormat();

  useEffect(() => {
    if (open) closeRef.current?.focus();
    else if (wasOpen.current) openerRef.current?.focus();
    wasOpen.current = open;
    document.body.classList.toggle('vt-drawer-open', open);
    return () => document.body.classList.remove('vt-drawer-open');
  }, [open, openerRef]);

  return (
    <>
      <aside
        id="vt-filters"
        className={`vt-filters${open ? ' vt-filters--open' : ''}`}
        aria-label="Filters"
        {...(open ? { role: 'dialog', 'aria-modal': true } : {})}
        onKeyDown={(event) => {
          if (!open) return;
          if (event.key === 'Escape') {
            event.stopPropagation();
            setOpen(false);
          } else if (event.key === 'Tab') {
            // A modal drawer keeps Tab inside itself: wrap from the last control to the first and back.
            const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(focusableSelector)].filter((element) => element.offsetParent !== null);
            const first = focusable[0];
            const last = focusable[focusable.length - 1];
            if (event.shiftKey && document.activeElement === first) {
              event.preventDefault();
              last?.focus();
            } else if (!event.shiftKey && document.activeElement === last) {
              event.preventDefault();
              first?.focus();
            }
          }
        }}
      >
        <div className="vt-filters-head">
          <h2>Filters</h2>
          <button ref={closeRef} type="button" className="vt-filters-close" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
        <div className="vt-filters-body">{children}</div>
        <div className="vt-filters-foot">
          <button type="button" className="vt-filters-see" onClick={() => setOpen(false)}>
            See {format.number(nbHits)} results
          </button>
        </div>
      </aside>
      {open && <div className="vt-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />}
    </>
  );
}
