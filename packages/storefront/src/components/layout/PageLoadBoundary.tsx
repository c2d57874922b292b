import { Component } from 'react';
import type { ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * Catches a page that fails to render, most often a lazy page chunk that could not be fetched (the shopper went
 * offline, or a new deployment replaced the file): a message and a Reload button instead of a blank page.
 * A reload is the cure because the browser remembers a failed module import for the life of the document.
 */
export class PageLoadBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="vt-error vt-page-error" role="alert">
        <h1>This page could not be loaded</h1>
        <p>Check your connection, then reload the page. Your cart is kept.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </section>
    );
  }
}
