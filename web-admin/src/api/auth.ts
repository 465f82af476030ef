import { apiJson, ApiError, fetchJson } from '@sprout/ui';
import type { AdminLoginRequest, AdminLoginResponse, AuthStatusResponse } from './types';

/** The session's admin, or `authenticated: false` (a 401 answer means the same). */
export async function getAuthStatus(): Promise<AuthStatusResponse> {
  try {
    return await fetchJson<AuthStatusResponse>('/api/admin/auth-status');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { authenticated: false, user: null };
    throw error;
  }
}

export function login(body: AdminLoginRequest): Promise<AdminLoginResponse> {
  return apiJson<AdminLoginResponse>('POST', '/api/admin/login', body);
}

export async function logout(): Promise<void> {
  await apiJson<unknown>('POST', '/api/admin/logout');
}
