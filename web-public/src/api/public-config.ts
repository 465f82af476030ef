import { api } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';

export function getPublicConfig() {
  return callEndpoint(api.public.config, {});
}
