// The public site and the console in Chromium under the api-gateway's Content-Security-Policy:
// every page loads and renders with no CSP violation (securitypolicyviolation events and the
// console's "Content Security Policy" errors), and the headers are on the pages themselves.
import { useBrowserStack } from '../src/fixtures';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../src/stack';

const { page, errors } = useBrowserStack({
  signedIn: false,
  // Collected in the page from its first script on, before the app's own.
  onPage: (opened) =>
    opened.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(
          `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
        );
      });
    }),
});

const violations = async (): Promise<string[]> => [
  ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ...errors.filter((e) => /Content Security Policy/i.test(e)),
];

it('serves the public pages with the CSP and no violation', async () => {
  for (const path of ['/', '/live', '/consent']) {
    const response = await page.goto(path);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#root').innerHTML()).not.toBe('');
    expect({ path, violations: await violations() }).toEqual({ path, violations: [] });
  }
});

it('serves the console, signed in, with no violation', async () => {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(ADMIN_USERNAME);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/admin/dashboard');
  for (const path of [
    '/admin/dashboard',
    '/admin/users',
    '/admin/messages',
    '/admin/surveys',
    '/admin/garden-calendar',
    '/admin/model-management',
    '/admin/image-monitoring',
    '/admin/ai-simulator',
  ]) {
    const response = await page.goto(path);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForLoadState('networkidle');
    expect({ path, violations: await violations() }).toEqual({ path, violations: [] });
  }
});
