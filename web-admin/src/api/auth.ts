import { type AuthStatusResponse, type EndpointRequest, api } from '@sprout/contracts';
import { ApiError, callEndpoint } from '@sprout/ui';

type LoginRequest = EndpointRequest<typeof api.auth.login>['body'];

/** The session's admin, or `authenticated: false` (a 401 answer means the same). */
export async function getAuthStatus(): Promise<AuthStatusResponse> {
  try {
    return await callEndpoint(api.auth.status, {});
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { authenticated: false, user: null };
    throw error;
  }
}

export function login(body: LoginRequest) {
  return callEndpoint(api.auth.login, { body });
}

export async function logout(): Promise<void> {
  await callEndpoint(api.auth.logout, {});
}
