/**
 * The process's metrics: prom-client's defaults (resident and heap memory, CPU, open files, event-loop lag and
 * its percentiles, garbage-collection pauses), under their usual names (`process_resident_memory_bytes`,
 * `nodejs_eventloop_lag_p99_seconds`…), which stock Node.js dashboards read.
 *
 * One registry for the process, made by the first app that asks, not prom-client's global one and not one per
 * app: they describe the process, whatever the number of apps in it, and each set starts an event-loop monitor
 * and a garbage-collection observer that nothing can stop, so one per app would pile up in a test run that
 * builds hundreds. The lag percentiles cover the time since the previous scrape (prom-client resets them then).
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

export function processMetrics(): Registry {
  if (registry === undefined) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
