import { endpointKey, publicApi } from '@sprout/contracts';

// Every query of the public site, derived from the endpoint table; the first element is the URL.
export const queryKeys = {
  publicConfig: endpointKey(publicApi.config),
};
