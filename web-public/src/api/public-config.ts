import { publicApi } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';

export function getPublicConfig() {
  return callEndpoint(publicApi.config, {});
}
