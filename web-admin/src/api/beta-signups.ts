import { api } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';

/** Beta signups, newest first. */
export function getBetaSignups() {
  return callEndpoint(api.waitlist.list, {});
}

export function approveBetaSignup(id: string) {
  return callEndpoint(api.waitlist.approve, { params: { id } });
}
