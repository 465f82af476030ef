/**
 * Every page address of the two web apps, in one place: the apps route
 * them, the api-gateway answers them with 200 and any other path with 404 and the 404 page.
 * `:name` stands for one path segment. A web-admin test keeps this list and its router in step.
 */
export const webPages = {
  public: ['/', '/live', '/consent', '/location-test'],
  admin: [
    '/admin',
    '/admin/login',
    '/admin/dashboard',
    '/admin/users',
    '/admin/messages',
    '/admin/surveys',
    '/admin/garden-calendar',
    '/admin/model-management',
    '/admin/ai-simulator',
    '/admin/validation-test',
    '/admin/input-processing',
    '/admin/location-test',
    '/admin/image-monitoring',
    '/admin/fallback-monitoring',
    '/admin/proactive-monitoring',
    '/admin/system-health',
    '/admin/monitoring',
    '/ai-conversation-simulator',
    '/mobile-conversation/:userId',
    // The Messages screen links a phone to /users?search={phone}; the admin app redirects it.
    '/users',
  ],
} as const satisfies Record<'public' | 'admin', readonly string[]>;

export type WebApp = keyof typeof webPages;

/** Whether a URL path (no query) is the page `pattern`; one trailing slash is ignored. */
export function isWebPage(pattern: string, urlPath: string): boolean {
  const trimmed = urlPath.length > 1 && urlPath.endsWith('/') ? urlPath.slice(0, -1) : urlPath;
  const want = pattern.split('/');
  const got = trimmed.split('/');
  if (want.length !== got.length) return false;
  return want.every((part, i) => (part.startsWith(':') ? got[i] !== '' : part === got[i]));
}

/** The app whose page a URL path is, or null for a path no app has (the 404 page). */
export function webAppOf(urlPath: string): WebApp | null {
  for (const app of ['public', 'admin'] as const) {
    if (webPages[app].some((pattern) => isWebPage(pattern, urlPath))) return app;
  }
  return null;
}
