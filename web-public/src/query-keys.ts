import { api, endpointKey } from '@sprout/contracts';

// Every query of the public site, derived from the endpoint table; the first element is the URL
// (spec 000 §7).
export const queryKeys = {
  publicConfig: endpointKey(api.public.config),
};
