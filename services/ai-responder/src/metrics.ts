import { counter, defineMetrics } from '@sprout/platform';

/** ai-responder's own metrics, beside the job metrics and the spend ledger's (libs/platform). */
export const aiResponderMetrics = defineMetrics({
  senderLimited: counter(
    'sprout_sender_limited_total',
    'Texts not answered because their sender was over a per-sender reply limit',
    ['window'],
  ),
});
