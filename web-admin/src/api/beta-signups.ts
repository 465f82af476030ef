import { apiJson, fetchJson } from '@sprout/ui';
import type { BetaSignupApproveResponse, BetaSignupDto } from './types';

/** Beta signups, newest first. */
export function getBetaSignups(): Promise<BetaSignupDto[]> {
  return fetchJson<BetaSignupDto[]>('/api/admin/beta-signups');
}

export function approveBetaSignup(id: BetaSignupDto['id']): Promise<BetaSignupApproveResponse> {
  return apiJson<BetaSignupApproveResponse>(
    'POST',
    `/api/admin/beta-signups/${encodeURIComponent(id)}/approve`,
  );
}
