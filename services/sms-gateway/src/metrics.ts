import { counter, defineMetrics, gauge } from '@sprout/platform';

/** sms-gateway's own metrics, beside the job metrics every worker host records. */
export const smsGatewayMetrics = defineMetrics({
  spendThresholdCrossed: counter(
    'sprout_sms_spend_threshold_crossed_total',
    'Times the day’s SMS spend crossed a share of SMS_DAILY_SPEND_LIMIT (80 or 100 percent)',
    ['threshold'],
  ),
  sendsRefused: counter(
    'sprout_sms_sends_refused_total',
    'Messages not sent because the daily SMS spending limit was reached',
  ),
  spendToday: gauge('sprout_sms_spend_today_dollars', 'SMS spend since midnight (SPEND_TIME_ZONE)'),
  inboundSweep: counter(
    'sprout_inbound_sweep_total',
    'Awaiting-reply rows the inbound sweep looked at, by outcome (enqueued, retried, in-queue, settled, abandoned, expired)',
    ['outcome'],
  ),
});
