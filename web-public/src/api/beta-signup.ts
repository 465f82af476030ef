import { type EndpointRequest, waitlistApi } from '@sprout/contracts';
import { callEndpoint } from '@sprout/ui';

export type JoinWaitlistBody = EndpointRequest<typeof waitlistApi.join>['body'];

/** A new signup (201) or the notice that the email is already on the list (200). */
export function joinWaitlist(body: JoinWaitlistBody) {
  return callEndpoint(waitlistApi.join, { body });
}
