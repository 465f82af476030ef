import { defineMetrics, gauge } from '@sprout/platform';

/** The monitor's own metrics: what it found of the dependencies, the queues and the trends. */
export const monitorMetrics = defineMetrics({
  serviceAvailable: gauge(
    'sprout_monitored_service_available',
    'Whether a dependency counts as available (1) or not (0)',
    ['target'],
  ),
  serviceFailures: gauge(
    'sprout_monitored_service_consecutive_failures',
    'Consecutive failed health checks of a dependency',
    ['target'],
  ),
  queueJobs: gauge('sprout_queue_jobs', 'Jobs in a queue by state', ['queue', 'state']),
  queueWorkers: gauge('sprout_queue_workers', 'Workers connected to a queue', ['queue']),
  queueOldestWaiting: gauge(
    'sprout_queue_oldest_waiting_seconds',
    'How long the oldest waiting job of a queue has waited (0 when none waits)',
    ['queue'],
  ),
  queueAvailable: gauge('sprout_queue_available', 'Whether a queue counts as moving (1) or stalled (0)', [
    'queue',
  ]),
  activePredictions: gauge('sprout_monitor_active_predictions', 'Predictions raised by the last run', [
    'severity',
  ]),
});
