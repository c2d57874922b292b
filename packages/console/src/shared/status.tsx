/**
 * How an action and its task went, in one line: "busy" while the request (and its task) runs, then a
 * confirmation, or the error described with the ACL the action needs. Every screen reports its writes this way.
 */
import { useCallback, useState } from 'react';
import { describeError } from '../api/access.ts';
import type { Acl } from '../api/access.ts';

export type Outcome = { state: 'idle' } | { state: 'busy'; message: string } | { state: 'done'; message: string } | { state: 'error'; message: string };

export interface ActionWords {
  /** What the operator tried, for an error ("change rules"). */
  action: string;
  /** The permission it needs, named in a 403's message. */
  acl?: Acl | 'admin';
  busy: string;
  done: string;
}

/** Runs one action at a time and keeps its outcome; resolves to whether it succeeded. */
export function useAction(): [Outcome, (what: ActionWords, run: () => Promise<void>) => Promise<boolean>] {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const run = useCallback(async (what: ActionWords, body: () => Promise<void>) => {
    setOutcome({ state: 'busy', message: what.busy });
    try {
      await body();
      setOutcome({ state: 'done', message: what.done });
      return true;
    } catch (error) {
      setOutcome({ state: 'error', message: describeError(error, what.action, what.acl) });
      return false;
    }
  }, []);
  return [outcome, run];
}

export function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (outcome.state === 'idle') return null;
  if (outcome.state === 'error') return <ErrorAlert message={outcome.message} />;
  return (
    <p className={`vt-console-status vt-console-status--${outcome.state}`} role="status">
      {outcome.message}
    </p>
  );
}

export function ErrorAlert({ message }: { message: string }) {
  return (
    <div className="vt-error" role="alert">
      <p>{message}</p>
    </div>
  );
}

/** A task's state as the operator reads it. */
export function taskStateLabel(status: 'notPublished' | 'published' | 'failed'): string {
  return status === 'published' ? 'Published' : status === 'failed' ? 'Unknown (check failed)' : 'Not published yet';
}
