import {
  type ConfigOf,
  coreConfigFields,
  defineConfig,
  openAiConfigFields,
  portField,
} from '@sprout/platform';

export const SERVICE_NAME = 'ai-responder';

export const aiResponderConfig = defineConfig({
  ...coreConfigFields,
  port: portField(3002),
  ...openAiConfigFields,
});
export type AiResponderConfig = ConfigOf<typeof aiResponderConfig>;
