// A signed-in admin's page, as most console tests start.
import { type Browser, type BrowserContext, openPage, type Page } from '@sprout/testing/browser';
import { ADMIN_PASSWORD, ADMIN_USERNAME, type WebStack } from './stack';

export interface AdminSession {
  context: BrowserContext;
  page: Page;
}

/**
 * A fresh context on the stack, signed in as the e2e admin; browser errors go to `errors`.
 * `viewport` for a phone or a given screen width.
 */
export async function signedInPage(
  browser: Browser,
  stack: WebStack,
  errors: string[],
  viewport?: { width: number; height: number },
): Promise<AdminSession> {
  const session = await openPage(browser, {
    baseURL: stack.baseUrl,
    errors,
    ...(viewport ? { viewport } : {}),
  });
  const response = await session.context.request.post('/api/admin/login', {
    data: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
  });
  if (response.status() !== 200) throw new Error(`Admin login answered ${response.status()}`);
  return session;
}
