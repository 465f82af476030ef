import { endpointKey, publicApi } from '@sprout/contracts';

// Every query of the public site, derived from the endpoint table; the first element is the URL
// (spec 000 §7).
export const queryKeys = {
  publicConfig: endpointKey(publicApi.config),
};
