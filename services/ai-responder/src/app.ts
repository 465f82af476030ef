import { defineWorkerService } from '@sprout/platform';
import { SERVICE_NAME, aiResponderConfig } from './config';
import { PipelineModule } from './pipeline/pipeline.module';

/** The ai-responder: answers inbound texts and summarises conversations. */
export const aiResponder = defineWorkerService({
  name: SERVICE_NAME,
  config: aiResponderConfig,
  workers: (config) => ({
    owns: ['sms.inbound', 'conversation.summarize'],
    concurrency: {
      'sms.inbound': config.smsInboundConcurrency,
      'conversation.summarize': config.summarizeConcurrency,
    },
  }),
  imports: [PipelineModule],
});

export const { createApp } = aiResponder;
