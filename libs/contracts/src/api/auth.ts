import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import { textField } from '../http/params';
import type { ActionResponse } from './common';

export const MISSING_CREDENTIALS = 'Please provide both username and password.';

/**
 * POST /api/admin/login. A missing, blank or non-text field asks for both; a
 * password is kept as typed (spaces included) but may not be only spaces.
 */
export const AdminLoginRequest = z.object(
  {
    username: textField(MISSING_CREDENTIALS)
      .trim()
      .min(1, { error: MISSING_CREDENTIALS })
      .max(100, { error: 'must be at most 100 characters' }),
    password: textField(MISSING_CREDENTIALS)
      .max(200, { error: 'must be at most 200 characters' })
      .refine((password) => password.trim() !== '', { error: MISSING_CREDENTIALS }),
  },
  { error: MISSING_CREDENTIALS },
);
export type AdminLoginRequest = z.output<typeof AdminLoginRequest>;

export interface AdminUserDto {
  id: string;
  username: string;
}

export interface AdminLoginResponse {
  success: true;
  user: AdminUserDto;
}

/** GET /api/admin/auth-status: `user` is null when not signed in (the mobile chat redirects). */
export interface AuthStatusResponse {
  authenticated: boolean;
  user: AdminUserDto | null;
}

export const authApi = {
  login: endpoint({
    method: 'POST',
    path: '/api/admin/login',
    access: 'public',
    tag: 'admin auth',
    summary: 'Sign in as an admin; sets the sprout_session cookie',
    description:
      'A wrong password and an unknown user get the same 401. Repeated failures block the account ' +
      'and the client IP for a while (429).',
    body: AdminLoginRequest,
    answer: answer<AdminLoginResponse>('The signed-in admin'),
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/admin/logout',
    access: 'admin',
    tag: 'admin auth',
    summary: 'End the admin session',
    answer: answer<ActionResponse>('{ success: true }'),
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/admin/auth-status',
    access: 'public',
    tag: 'admin auth',
    summary: 'Whether the request carries a live admin session',
    answer: answer<AuthStatusResponse>('{ authenticated, user }'),
  }),
} as const;
