// The public site in Chromium against the real api-gateway: landing, waitlist, /live, /consent, 404.
import { checkA11y, hasHorizontalScroll, type Page } from '@sprout/testing/browser';
import { useBrowserStack } from '../src/fixtures';
import { expectToast, gzippedScriptBytes, toastWithTitle } from '../src/helpers';

const { stack, page, errors } = useBrowserStack({ signedIn: false });

async function signupCount(email: string): Promise<number> {
  const rows: { n: string }[] = await stack.db.dataSource.query(
    'SELECT count(*) AS n FROM beta_signups WHERE email = $1',
    [email],
  );
  return Number(rows[0]?.n);
}

const sampleMessages = () => page.getByTestId('sample-message');

describe('landing page', () => {
  it('reveals the six sample messages one every 800 ms', async () => {
    const start = new Date('2025-05-01T10:00:00Z');
    await page.clock.install({ time: start });
    // Pause ahead of the install time: the clock runs meanwhile, and pausing in its past throws.
    await page.clock.pauseAt(new Date(start.getTime() + 60_000));
    await page.goto('/');
    await page.getByTestId('sample-conversation').waitFor();
    expect(await sampleMessages().count()).toBe(0);
    for (let shown = 1; shown <= 6; shown += 1) {
      await page.clock.runFor(799);
      expect(await sampleMessages().count()).toBe(shown - 1);
      await page.clock.runFor(1);
      await sampleMessages()
        .nth(shown - 1)
        .waitFor();
      expect(await sampleMessages().count()).toBe(shown);
    }
    await page.clock.runFor(5000);
    expect(await sampleMessages().count()).toBe(6);
  });

  it('has the headline, three feature cards, use cases and the footer', async () => {
    await page.goto('/');
    await expectVisible(page.getByRole('heading', { level: 1 }));
    expect(
      await page
        .getByRole('heading', { name: 'Everything your garden needs to know' })
        .locator('..')
        .getByRole('listitem')
        .count(),
    ).toBe(3);
    await expectVisible(page.getByRole('heading', { name: 'Made for every kind of gardener' }));
    const adminLink = page.getByRole('contentinfo').getByRole('link', { name: 'Admin Login' });
    expect(await adminLink.getAttribute('href')).toBe('/admin');
    expect(await page.getByRole('contentinfo').innerText()).toContain('© 2025');
    expect(errors).toEqual([]);
  });

  it('adds a visitor to the waitlist and clears the form', async () => {
    await page.goto('/');
    await page.getByLabel('Email').fill('grower@example.com');
    await page.getByLabel('Zip code').fill('97214');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expectToast(
      page,
      'Welcome to the waitlist!',
      "Thanks for joining! We'll reach out when the beta is live and ready.",
    );
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await page.getByLabel('Zip code').inputValue()).toBe('');
    expect(await signupCount('grower@example.com')).toBe(1);
    const rows: { zip_code: string }[] = await stack.db.dataSource.query(
      'SELECT zip_code FROM beta_signups WHERE email = $1',
      ['grower@example.com'],
    );
    expect(rows[0]?.zip_code).toBe('97214');
  });

  it('asks for both fields and sends nothing when one is missing', async () => {
    await page.goto('/');
    await page.getByLabel('Email').fill('half@example.com');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await expectToast(page, 'Missing Information', 'Please provide both email and region.');
    expect(await signupCount('half@example.com')).toBe(0);
    expect(await page.getByLabel('Email').inputValue()).toBe('half@example.com');
  });

  it('keeps one signup for the same email and shows the server’s friendly message', async () => {
    await page.goto('/');
    for (const zip of ['10001', '10002']) {
      await page.getByLabel('Email').fill('twice@example.com');
      await page.getByLabel('Zip code').fill(zip);
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await page.getByRole('button', { name: 'Join the waitlist' }).waitFor();
      await page.waitForFunction(
        () => (document.querySelector('input[name="email"]') as HTMLInputElement).value === '',
      );
    }
    const toast = await toastWithTitle(page, "You're already on the waitlist");
    expect(toast.description).toContain('already on the waitlist');
    expect(toast.destructive).toBe(false);
    expect(await page.getByTestId('toast').count()).toBe(1);
    expect(await signupCount('twice@example.com')).toBe(1);
  });

  it('shows the server’s message in a destructive toast when the signup fails', async () => {
    await page.goto('/');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Zip code').fill('94117');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    const toast = await toastWithTitle(page, 'Error');
    expect(toast.destructive).toBe(true);
    expect(toast.description).toBe('Please provide a valid email address.');
    expect(await page.getByLabel('Email').inputValue()).toBe('not-an-email');
  });

  it('has no serious accessibility violation', async () => {
    await page.goto('/');
    await sampleMessages().nth(5).waitFor();
    expect(await checkA11y(page)).toEqual([]);
  });

  it('fits a 360 px phone without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/', '/live', '/consent']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect({ path, scrolls: await hasHorizontalScroll(page) }).toEqual({ path, scrolls: false });
    }
  });

  it('loads at most 120 KB of gzipped JavaScript', async () => {
    const bytes = await gzippedScriptBytes(page, '/');
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(120 * 1024);
  });

  it('is usable from the keyboard: Tab reaches the waitlist form', async () => {
    await page.goto('/');
    const reached: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(
          () => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? '',
        ),
      );
    }
    expect(reached).toEqual(expect.arrayContaining(['email', 'region']));
  });
});

describe('/live', () => {
  it('texts the configured number and lists why SMS, use cases, three steps and a contact link', async () => {
    const config = (await (await fetch(`${stack.baseUrl}/api/public-config`)).json()) as {
      phoneNumber: string;
      contactEmail: string;
    };
    expect(config.phoneNumber).toMatch(/^\+\d{8,15}$/);
    await page.goto('/live');
    const textUs = page.getByTestId('text-us');
    await textUs.waitFor();
    expect(await textUs.getAttribute('href')).toBe(`sms:${config.phoneNumber}`);
    await expectVisible(page.getByRole('heading', { name: 'Why SMS?' }));
    await expectVisible(page.getByRole('heading', { name: 'What people text us about' }));
    const steps = page.getByRole('heading', { name: 'How it works' }).locator('..').locator('ol > li');
    expect(await steps.count()).toBe(3);
    expect(await page.getByTestId('contact-us').getAttribute('href')).toBe(`mailto:${config.contactEmail}`);
    expect(await checkA11y(page)).toEqual([]);
  });
});

describe('/consent', () => {
  it('explains SMS use, STOP and HELP, message rates, and returns to signup', async () => {
    await page.goto('/consent');
    await expectVisible(page.getByRole('heading', { name: 'SMS consent', level: 1 }));
    const text = await page.getByRole('main').innerText();
    for (const phrase of ['How we use SMS', 'STOP', 'HELP', 'Message and data rates may apply'])
      expect(text).toContain(phrase);
    expect(await checkA11y(page)).toEqual([]);
    await page.getByRole('link', { name: 'Return to signup' }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await page.getByTestId('waitlist-form').waitFor();
  });
});

describe('404', () => {
  it('answers 404 and shows the not-found page for any other path', async () => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expectVisible(page.getByRole('heading', { name: 'Page not found' }));
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByTestId('waitlist-form').waitFor();
  });
});

async function expectVisible(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await locator.waitFor({ state: 'visible' });
  expect(await locator.isVisible()).toBe(true);
}
