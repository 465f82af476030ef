import { apiJson } from '@sprout/ui';
import type { BetaSignupRequest, BetaSignupResponse } from './types';

export function joinWaitlist(body: BetaSignupRequest): Promise<BetaSignupResponse> {
  return apiJson<BetaSignupResponse>('POST', '/api/beta-signup', body);
}
