/** The six services, in the order of their ports (3000 up) as the stack and the manifests list them. */
export const SERVICES = [
  'api-gateway',
  'sms-gateway',
  'ai-responder',
  'survey-scheduler',
  'image-processor',
  'monitor',
] as const;
