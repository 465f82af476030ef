import { counter, defineMetrics } from '@sprout/platform';

/** image-processor's own metrics, beside the job metrics and the spend ledger's (libs/platform). */
export const imageProcessorMetrics = defineMetrics({
  analyses: counter('sprout_image_analyses_total', 'Image analyses by outcome', ['outcome']),
});
