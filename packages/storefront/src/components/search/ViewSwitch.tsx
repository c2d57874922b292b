import { useViewMode } from './useViewMode.ts';

/** Two toggle buttons: numbered pages or one growing list. */
export function ViewSwitch() {
  const { view, refine } = useViewMode();
  return (
    <div className="vt-view-switch" role="group" aria-label="Results view">
      <button type="button" aria-pressed={view === 'pages'} onClick={() => refine('pages')}>
        Pages
      </button>
      <button type="button" aria-pressed={view === 'infinite'} onClick={() => refine('infinite')}>
        Infinite scroll
      </button>
    </div>
  );
}
