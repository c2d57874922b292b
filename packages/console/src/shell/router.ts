/**
 * The console's own addresses: `/admin/<screen>?index=<name>`, `/admin` alone being the first screen. Moving
 * between screens pushes a history entry and tells the console (Back and Forward too); the shop's router only
 * knows that `/admin…` is the console's.
 */
import { useSyncExternalStore } from 'react';
import type { MouseEvent as ReactMouseEvent } from 'react';

const navigateEvent = 'vitrine:console-navigate';

/** The screen segment of a console address (`''` for `/admin` itself), or undefined for a deeper address. */
export function screenPathOf(pathname: string): string | undefined {
  const match = /^\/admin(?:\/([^/]*))?\/?$/.exec(pathname);
  return match ? (match[1] ?? '') : undefined;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(navigateEvent, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(navigateEvent, listener);
  };
}

/** The current screen segment; re-renders the caller when the operator moves to another screen. */
export function useScreenPath(): string | undefined {
  return useSyncExternalStore(subscribe, () => screenPathOf(window.location.pathname), () => '');
}

export function screenHref(path: string, indexName: string): string {
  return `/admin/${path}?index=${encodeURIComponent(indexName)}`;
}

/** The index named in the address, if any (a link to a screen keeps the index it was opened on). */
export function indexInAddress(): string | undefined {
  return new URLSearchParams(window.location.search).get('index') || undefined;
}

/** Click handler for links between screens: plain left clicks stay in the console, modified clicks keep the browser's behaviour. */
export function followLink(event: ReactMouseEvent<HTMLAnchorElement>, href: string): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.history.pushState(null, '', href);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(navigateEvent));
}
