import { z } from 'zod';

/** POST /api/admin/login */
export const AdminLoginRequest = z.object({
  username: z.string().trim().min(1, { error: 'Please provide both username and password.' }).max(100),
  password: z.string().min(1, { error: 'Please provide both username and password.' }).max(200),
});
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
