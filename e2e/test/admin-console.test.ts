// The admin console in Chromium against the real api-gateway: login, shell, dashboard, sign out.
import { checkA11y } from '@sprout/testing/browser';
import { useBrowserStack } from '../src/fixtures';
import { expectToast, toastWithTitle } from '../src/helpers';
import { reportQuietMonitor } from '../src/monitor-report';
import { SEEDED, seedDashboard } from '../src/seed';
import { SEEDING_TIMEOUT_MS } from '../src/seed-insight';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from '../src/stack';

const PHONE = { width: 390, height: 844 };

const { stack, page, context, errors, login, openPage } = useBrowserStack({
  signedIn: false,
  setup: (started) => seedDashboard(started.db.dataSource),
  setupTimeoutMs: SEEDING_TIMEOUT_MS,
});

const metric = (name: string) => page.getByTestId(`metric-${name}-value`);
const metricDetail = (name: string) => page.getByTestId(`metric-${name}-detail`);

async function metricsShown() {
  return {
    activeUsers: await metric('active-users').innerText(),
    messagesToday: await metric('messages-today').innerText(),
    avgResponse: await metricDetail('messages-today').innerText(),
    todaysCost: await metric('todays-cost').innerText(),
  };
}

async function waitForMetrics(expected: { activeUsers: string }): Promise<void> {
  await page.waitForFunction(
    (value) => document.querySelector('[data-testid="metric-active-users-value"]')?.textContent === value,
    expected.activeUsers,
  );
}

describe('login', () => {
  it('asks for both fields', async () => {
    await page.goto('/admin');
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectToast(page, 'Missing Information', 'Please provide both username and password.');
  });

  it('refuses a wrong password with a destructive toast and stays on the login page', async () => {
    await page.goto('/admin');
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const toast = await toastWithTitle(page, 'Login Failed');
    expect(toast.destructive).toBe(true);
    expect(toast.description.length).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect(await page.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('signs in and goes to the dashboard', async () => {
    await page.goto('/admin');
    await page.getByLabel('Username').fill(ADMIN_USERNAME);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectToast(page, 'Login Successful', 'Welcome to the admin dashboard');
    await page.waitForURL('**/admin/dashboard');
    expect(await page.getByTestId('admin-username').innerText()).toBe(ADMIN_USERNAME);
  });

  it('sends a signed-in admin from /admin and /admin/login to the dashboard', async () => {
    await login();
    for (const path of ['/admin', '/admin/login']) {
      await page.goto(path);
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    }
  });

  it('sends a signed-out visitor of an admin page to the login page', async () => {
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/login');
    await page.getByTestId('login-form').waitFor();
  });

  it('has no serious accessibility violation', async () => {
    await page.goto('/admin');
    await page.getByTestId('login-form').waitFor();
    expect(await checkA11y(page)).toEqual([]);
  });
});

describe('dashboard', () => {
  it('shows the seeded figures and the ten most recent signups', async () => {
    await login();
    await page.goto('/admin/dashboard');
    await waitForMetrics(SEEDED.real);
    expect(await metricsShown()).toEqual(SEEDED.real);
    expect(await metric('beta-signups').innerText()).toBe(String(SEEDED.signups.total));
    expect(await metricDetail('beta-signups').innerText()).toBe(`${SEEDED.signups.pending} pending`);
    // The card's label, with what SMS cost today beside it (the seed sends nothing).
    expect(await metricDetail('todays-cost').innerText()).toBe('API usage · SMS $0.00');

    const rows = page.getByTestId('beta-signup-row');
    expect(await rows.count()).toBe(10);
    const first = await rows.first().locator('td').allInnerTexts();
    expect(first.slice(0, 3)).toEqual(['signup12@example.com', '94112', 'SPROUT-0012']);
    expect(first[4]).toBe('pending');
    expect(await page.getByRole('button', { name: /^Approve / }).count()).toBe(10);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('approves a signup', async () => {
    await login();
    await page.goto('/admin/dashboard');
    await metric('beta-signups').filter({ hasText: /^\d+$/ }).waitFor();
    const pendingBefore = Number.parseInt(await metricDetail('beta-signups').innerText(), 10);
    await page.getByRole('button', { name: 'Approve signup11@example.com' }).click();
    const toast = await toastWithTitle(page, 'Signup Approved');
    expect(toast.description).toContain('signup11@example.com');
    const row = page.getByTestId('beta-signup-row').filter({ hasText: 'signup11@example.com' });
    await row.getByText('approved', { exact: true }).waitFor();
    // Every entry keeps its button: an approved one shows it disabled, as "Approved".
    const approved = row.getByRole('button', { name: 'Approved signup11@example.com' });
    expect(await approved.innerText()).toBe('Approved');
    expect(await approved.isDisabled()).toBe(true);
    const rows = page.getByTestId('beta-signup-row');
    for (let i = 0; i < (await rows.count()); i += 1)
      expect(await rows.nth(i).getByRole('button').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Approve / }).count()).toBe(9);
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid="metric-beta-signups-detail"]')?.textContent === text,
      `${pendingBefore - 1} pending`,
    );
    const saved: { status: string }[] = await stack.db.dataSource.query(
      'SELECT status FROM beta_signups WHERE email = $1',
      ['signup11@example.com'],
    );
    expect(saved[0]?.status).toBe('approved');
    expect(await checkA11y(page)).toEqual([]);
  });

  it('switches between real and test user data with Test Data Mode, and remembers the choice', async () => {
    await login();
    await page.goto('/admin/dashboard');
    await waitForMetrics(SEEDED.real);
    const modeSwitch = page.getByRole('switch', { name: 'Test Data Mode' });
    expect(await modeSwitch.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByText('Showing real user data').isVisible()).toBe(true);

    await modeSwitch.click();
    await waitForMetrics(SEEDED.test);
    expect(await metricsShown()).toEqual(SEEDED.test);
    expect(await page.getByText('Showing test user data').isVisible()).toBe(true);

    await page.reload();
    await waitForMetrics(SEEDED.test);
    expect(await page.getByRole('switch', { name: 'Test Data Mode' }).getAttribute('aria-checked')).toBe(
      'true',
    );

    await page.getByRole('switch', { name: 'Test Data Mode' }).click();
    await waitForMetrics(SEEDED.real);
    expect(await metricsShown()).toEqual(SEEDED.real);
  });
});

describe('console shell', () => {
  it('has the twelve sidebar entries in order, each leading to a page', async () => {
    // Proactive Monitoring answers 503 until the monitor has reported: here it has, quietly.
    await reportQuietMonitor(stack.redis);
    await login();
    await page.goto('/admin/dashboard');
    const links = page.getByTestId('sidebar-nav').getByRole('link');
    await links.first().waitFor();
    expect(await links.allInnerTexts()).toEqual([
      'Overview',
      'Users',
      'Messages',
      'Surveys',
      'Garden Calendar',
      'Model Management',
      'Conversation Testing',
      'Message Validation',
      'Location Detection',
      'Fallback System',
      'Proactive Monitoring',
      'System Health',
    ]);
    const hrefs = await links.evaluateAll((elements) => elements.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs[0]).toBe('/admin/dashboard');
    for (const [index, href] of hrefs.entries()) {
      await links.nth(index).click();
      await page.waitForURL(`**${href}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByText('Page not found').count()).toBe(0);
      const response = await page.request.get(href);
      expect({ href, status: response.status() }).toEqual({ href, status: 200 });
    }
    expect(errors).toEqual([]);
  });

  it('names the console once on a phone, in the bar above the menu', async () => {
    await openPage({ viewport: PHONE, signedIn: true });
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Users' }).waitFor();
    expect(await page.getByText('Sprout Admin', { exact: true }).filter({ visible: true }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Sprout Admin' }).getAttribute('href')).toBe(
      '/admin/dashboard',
    );
    expect(errors).toEqual([]);
  });

  it('signs out to the login page, after which admin pages send back to login', async () => {
    await login();
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByTestId('login-form').waitFor();
    const status = await page.request.get('/api/admin/auth-status');
    expect(await status.json()).toEqual({ authenticated: false, user: null });
    await page.goto('/admin/dashboard');
    await page.waitForURL('**/admin/login');
  });

  it('goes to login when a query answers 401 mid-session', async () => {
    await login();
    await page.goto('/admin/dashboard');
    await waitForMetrics(SEEDED.real);
    await context.request.post('/api/admin/logout');
    await page.getByRole('switch', { name: 'Test Data Mode' }).click();
    await page.waitForURL('**/admin/login');
    await page.getByTestId('login-form').waitFor();
  });

  it('serves the simulator at its second address and guards the mobile chat', async () => {
    await page.goto('/mobile-conversation/0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10');
    await page.waitForURL('**/admin/login');
    await login();
    await page.goto('/mobile-conversation/0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10');
    await page.getByRole('heading', { name: 'Mobile chat' }).waitFor();
    await page.goto('/ai-conversation-simulator');
    await page.getByRole('heading', { name: 'Conversation Testing', level: 1 }).waitFor();
    await page.getByTestId('sidebar-nav').waitFor();
  });

  it('shows the 404 page for an unknown admin path', async () => {
    await login();
    await page.goto('/admin/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});
