import { counter, defineMetrics } from '@sprout/platform';

/** survey-scheduler's own metrics, beside the job metrics every worker host records. */
export const surveySchedulerMetrics = defineMetrics({
  campaignTransitions: counter('sprout_survey_campaign_transitions_total', 'Campaign status changes', [
    'from',
    'to',
  ]),
  deliveriesTargeted: counter(
    'sprout_survey_deliveries_targeted_total',
    'Survey deliveries created (users targeted)',
  ),
  nwsFailures: counter('sprout_nws_failures_total', 'NWS requests that failed (outage, timeout, bad answer)'),
});
