// The four tester screens in Chromium against the real api-gateway: the public and admin location
// tests, the message validation tester and the input processing tester.
import { checkA11y, hasHorizontalScroll } from '@sprout/testing/browser';
import { useBrowserStack } from '../src/fixtures';
import { clickForResult, expectErrorToast } from '../src/helpers';

const { page, context, errors, login } = useBrowserStack({ signedIn: false });

async function signOut(): Promise<void> {
  expect((await context.request.post('/api/admin/logout')).ok()).toBe(true);
}

/** The example button whose label starts with `label`. */
const example = (listTestId: string, label: string) =>
  page.getByTestId(listTestId).getByRole('button', { name: new RegExp(`^${label}`) });

const shown = (testId: string) => page.getByTestId(testId).innerText();

/** Every request the page sends to `path`, as JSON bodies. */
function recordRequests(path: string): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) bodies.push(request.postDataJSON());
  });
  return bodies;
}

describe('location test', () => {
  interface LocationAnswer {
    hasLocation: boolean;
    location: string | null;
    confidence: number;
    locationType: string | null;
    refusedLocation: boolean;
  }

  // The eight example messages and what each must read as.
  const EXAMPLES: { label: string; hasLocation: boolean; refused: boolean }[] = [
    { label: 'ZIP code', hasLocation: true, refused: false },
    { label: 'City and state', hasLocation: true, refused: false },
    { label: 'Region', hasLocation: true, refused: false },
    { label: 'Near the coast', hasLocation: false, refused: false },
    { label: 'Up north', hasLocation: false, refused: false },
    { label: 'By the river', hasLocation: false, refused: false },
    { label: 'Declines to share', hasLocation: false, refused: true },
    { label: 'Plant question', hasLocation: false, refused: false },
  ];

  const messageBox = () => page.getByLabel('Message', { exact: true });
  const testButton = () => page.getByRole('button', { name: 'Test Location' });

  async function answerFor(message: string): Promise<LocationAnswer> {
    const response = await context.request.post('/api/test-location', { data: { message } });
    expect(response.status()).toBe(200);
    return (await response.json()) as LocationAnswer;
  }

  async function resultShown() {
    await page.getByTestId('location-result').waitFor();
    return {
      hasLocation: await shown('location-result-has-location'),
      location: await shown('location-result-location'),
      confidence: await shown('location-result-confidence'),
      locationType: await shown('location-result-type'),
      refused: await shown('location-result-refused'),
    };
  }

  /** Fills the box from the example, runs the test and answers the tested text and the result shown. */
  async function runExample(label: string) {
    await example('location-examples', label).click();
    const message = await messageBox().inputValue();
    await testButton().click();
    await page.getByText(`Tested: “${message}”`, { exact: true }).waitFor();
    return { message, result: await resultShown() };
  }

  it('runs each of the eight examples on the public page, without login, as the API reads them', async () => {
    await page.goto('/location-test');
    await page.getByRole('heading', { name: 'Location test', level: 1 }).waitFor();
    expect(await page.getByTestId('location-examples').getByRole('button').count()).toBe(8);

    for (const expected of EXAMPLES) {
      const { message, result } = await runExample(expected.label);
      expect(message.length).toBeGreaterThan(0);
      const answer = await answerFor(message);
      expect({ label: expected.label, ...result }).toEqual({
        label: expected.label,
        hasLocation: answer.hasLocation ? 'Yes' : 'No',
        location: answer.location ?? 'None',
        confidence: `${Math.round(answer.confidence * 100)}%`,
        locationType: answer.locationType ?? 'none',
        refused: answer.refusedLocation ? 'Yes' : 'No',
      });
      expect({
        label: expected.label,
        hasLocation: answer.hasLocation,
        refused: answer.refusedLocation,
      }).toEqual({ label: expected.label, hasLocation: expected.hasLocation, refused: expected.refused });
    }
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows a ZIP code reading as a location with its confidence in percent', async () => {
    await page.goto('/location-test');
    await messageBox().fill('We just moved to 97214 and want a vegetable bed');
    await testButton().click();
    const result = await resultShown();
    expect(result.hasLocation).toBe('Yes');
    expect(result.location).toContain('97214');
    expect(result.confidence).toMatch(/^\d{1,3}%$/);
    expect(result.locationType).toBe('zip');
    expect(result.refused).toBe('No');
    expect(await page.getByText('Tested: “We just moved to 97214 and want a vegetable bed”').count()).toBe(1);
  });

  it('needs text that is not only spaces, and sends nothing without it', async () => {
    const sent = recordRequests('/api/test-location');
    await page.goto('/location-test');
    expect(await testButton().isDisabled()).toBe(true);
    await messageBox().fill('   \n  ');
    expect(await testButton().isDisabled()).toBe(true);
    await page.getByTestId('location-test-form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await messageBox().fill('  Portland, OR  ');
    expect(await testButton().isDisabled()).toBe(false);
    await testButton().click();
    await page.getByTestId('location-result').waitFor();
    expect(sent).toEqual([{ message: 'Portland, OR' }]);
  });

  it('shows the fixed error text with the server’s reason when the server refuses the message', async () => {
    await page.goto('/location-test');
    // The box stops at the server's limit; past it the server answers 400.
    expect(await messageBox().getAttribute('maxlength')).toBe('1600');
    await messageBox().evaluate((box) => box.removeAttribute('maxlength'));
    await messageBox().fill(`I garden in 97214 ${'and love tomatoes '.repeat(100)}`);
    await testButton().click();
    const error = page.getByTestId('location-test-error');
    await error.waitFor();
    const lines = (await error.innerText()).split(/\n+/);
    expect(lines[0]).toBe('Error testing location: Failed to test location detection');
    expect(lines[1]).toMatch(/1600/);
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('location-result').count()).toBe(0);
  });

  it('shows the fixed error text when the API cannot be reached', async () => {
    await page.goto('/location-test');
    await page.route('**/api/test-location', (route) => route.abort('connectionrefused'));
    await messageBox().fill('Austin, TX');
    await testButton().click();
    await page.getByTestId('location-test-error').waitFor();
    expect(await shown('location-test-error')).toBe(
      'Error testing location: Failed to test location detection',
    );
  });

  it('is the same test in the admin console, for a signed-in admin only', async () => {
    await page.goto('/admin/location-test');
    await page.waitForURL('**/admin/login');

    await login();
    await page.goto('/admin/location-test');
    await page.getByRole('heading', { name: 'Location Detection', level: 1 }).waitFor();
    expect(await page.getByTestId('location-examples').getByRole('button').count()).toBe(8);
    expect(await testButton().isDisabled()).toBe(true);
    const { message, result } = await runExample('Declines to share');
    const answer = await answerFor(message);
    expect(answer.refusedLocation).toBe(true);
    expect(result).toEqual({
      hasLocation: 'No',
      location: 'None',
      confidence: `${Math.round(answer.confidence * 100)}%`,
      locationType: answer.locationType ?? 'none',
      refused: 'Yes',
    });
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('message validation tester', () => {
  // The seven example messages and the kind the validator must give each.
  const EXAMPLES: { label: string; responseType: string; valid: boolean }[] = [
    { label: 'Valid gardening question', responseType: 'gardening_question', valid: true },
    { label: 'Too short', responseType: 'too_short', valid: false },
    { label: 'Spam', responseType: 'spam', valid: false },
    { label: 'Non-gardening', responseType: 'non_gardening', valid: false },
    { label: 'Out of region', responseType: 'out_of_region', valid: false },
    { label: 'Safety concern', responseType: 'safety_concern', valid: false },
    { label: 'Non-English', responseType: 'non_english', valid: false },
  ];

  const messageBox = () => page.getByLabel('Message', { exact: true });
  const validateButton = () => page.getByRole('button', { name: 'Validate Message' });

  const validate = () => clickForResult(page, validateButton(), '/api/validate-message', 'validation-result');

  it('counts characters and words as the message is typed', async () => {
    await login();
    await page.goto('/admin/validation-test');
    await page.getByRole('heading', { name: 'Message Validation', level: 1 }).waitFor();
    expect(await shown('message-stats')).toBe('0 characters · 0 words');
    await messageBox().fill('When  should I plant');
    expect(await shown('message-stats')).toBe('20 characters · 4 words');
    await messageBox().fill('tomato?');
    expect(await shown('message-stats')).toBe('7 characters · 1 word');
  });

  it('validates each of the seven examples as its kind', async () => {
    await login();
    await page.goto('/admin/validation-test');
    await page.getByTestId('validation-examples').waitFor();
    expect(await page.getByTestId('validation-examples').getByRole('button').count()).toBe(7);
    for (const expected of EXAMPLES) {
      await example('validation-examples', expected.label).click();
      const message = await messageBox().inputValue();
      await validate();
      await page.getByText(`Tested: “${message}”`, { exact: true }).waitFor();
      expect({
        label: expected.label,
        status: await shown('validation-status'),
        responseType: await shown('validation-response-type'),
      }).toEqual({
        label: expected.label,
        status: expected.valid ? 'Valid' : 'Invalid',
        responseType: expected.responseType,
      });
      expect(await shown('validation-confidence')).toMatch(/^\d{1,3}%$/);
      expect(await shown('validation-time')).toMatch(/\d{4}, \d{1,2}:\d{2} [AP]M$/);
      if (!expected.valid) {
        expect(await page.getByTestId('validation-issue').count()).toBeGreaterThan(0);
        expect(
          await page.getByTestId('validation-corrections').getByRole('listitem').count(),
        ).toBeGreaterThan(0);
      }
    }
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows issues with type, severity and message, and sends the optional user context', async () => {
    await login();
    const sent = recordRequests('/api/validate-message');
    await page.goto('/admin/validation-test');
    await example('validation-examples', 'Spam').click();
    await page.getByLabel('Zip code').fill(' 97214 ');
    await page.getByLabel('Hardiness zone').fill('8b');
    await validate();
    expect(sent).toEqual([
      {
        message: 'CLICK HERE for FREE money!!! www.win-cash.biz',
        userContext: { zip_code: '97214', hardiness_zone: '8b' },
      },
    ]);
    const answer = (await (
      await context.request.post('/api/validate-message', { data: sent[0] })
    ).json()) as { validation: { issues: { type: string; severity: string; message: string }[] } };
    const issues = page.getByTestId('validation-issue');
    expect(await issues.count()).toBe(answer.validation.issues.length);
    for (const [index, issue] of answer.validation.issues.entries()) {
      const row = issues.nth(index);
      expect({
        type: await row.getByTestId('validation-issue-type').innerText(),
        severity: await row.getByTestId('validation-issue-severity').innerText(),
        message: await row.getByTestId('validation-issue-message').innerText(),
      }).toEqual(issue);
    }
  });

  it('needs a message that is not only spaces', async () => {
    await login();
    const sent = recordRequests('/api/validate-message');
    await page.goto('/admin/validation-test');
    await messageBox().waitFor();
    expect(await validateButton().isDisabled()).toBe(true);
    await messageBox().fill('    ');
    expect(await validateButton().isDisabled()).toBe(true);
    await page.getByTestId('validation-form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await messageBox().fill(' How deep do I plant garlic? ');
    expect(await validateButton().isDisabled()).toBe(false);
    await validate();
    expect(sent).toEqual([{ message: 'How deep do I plant garlic?', userContext: {} }]);
  });

  it('shows the fixed error text when validation fails', async () => {
    await login();
    await page.goto('/admin/validation-test');
    await messageBox().fill('When should I prune apple trees?');
    await signOut();
    await validateButton().click();
    const error = page.getByTestId('validation-error');
    await error.waitFor();
    const lines = (await error.innerText()).split(/\n+/);
    expect(lines[0]).toBe('Error validating message: Failed to validate message');
    expect(lines[1]).toBe('Authentication required');
    expect(await validateButton().isDisabled()).toBe(false);
  });
});

describe('input processing tester', () => {
  const messageBox = () => page.getByLabel('Test message');
  const processButton = () => page.getByRole('button', { name: 'Process Message' });

  const processAndWait = () =>
    clickForResult(page, processButton(), '/api/process-message', 'processing-result');

  async function enhancementsShown(): Promise<string[]> {
    return page.getByTestId('processing-enhancements').getByRole('listitem').allInnerTexts();
  }

  it('has the documented context defaults (region, zone, soil, level) and six examples', async () => {
    await login();
    await page.goto('/admin/input-processing');
    await page.getByRole('heading', { name: 'Input Processing', level: 1 }).waitFor();
    expect({
      region: await page.getByLabel('Region or ZIP').inputValue(),
      zone: await page.getByLabel('Hardiness zone').inputValue(),
      soil: await page.getByLabel('Soil type').inputValue(),
      level: await page.getByLabel('Experience level').inputValue(),
    }).toEqual({ region: '94117', zone: '10a', soil: 'clay', level: 'beginner' });
    expect(await page.getByTestId('processing-examples').getByRole('button').count()).toBe(6);
    expect(await processButton().isDisabled()).toBe(true);
    expect(await checkA11y(page)).toEqual([]);
  });

  it('processes an example with the context and shows what the API answers', async () => {
    await login();
    const sent = recordRequests('/api/process-message');
    await page.goto('/admin/input-processing');
    await example('processing-examples', 'Planting time').click();
    const message = await messageBox().inputValue();
    await page.getByLabel('Soil type').fill('sandy');
    await processAndWait();

    const body = {
      message,
      userContext: {
        region: '94117',
        hardiness_zone: '10a',
        soil_type: 'sandy',
        experience_level: 'beginner',
      },
    };
    expect(sent).toEqual([body]);
    const answer = (await (await context.request.post('/api/process-message', { data: body })).json()) as {
      processing: { processedMessage: string; enhancements: string[]; skipProcessing: boolean };
      messageLength: number;
      wordCount: number;
    };
    expect(answer.processing.skipProcessing).toBe(false);
    expect(await shown('processing-original')).toBe(message);
    expect(await shown('processing-enhanced')).toBe(answer.processing.processedMessage);
    expect(answer.processing.processedMessage).toContain(message);
    expect(await enhancementsShown()).toEqual(answer.processing.enhancements);
    expect(answer.processing.enhancements).toEqual(
      expect.arrayContaining([
        'Added hardiness zone: 10a',
        'Added soil type: sandy',
        'Added experience level: beginner',
      ]),
    );
    expect(await shown('processing-length')).toBe(`${answer.messageLength} characters`);
    expect(answer.messageLength).toBe(message.length);
    expect(await shown('processing-word-count')).toBe(String(answer.wordCount));
    expect(await shown('processing-skip')).toBe('No');
    expect(await shown('validation-status')).toBe('Valid');
    expect(await shown('validation-response-type')).toBe('gardening_question');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('skips processing for a profile command', async () => {
    await login();
    await page.goto('/admin/input-processing');
    await example('processing-examples', 'Profile command').click();
    const message = await messageBox().inputValue();
    await processAndWait();
    expect(await shown('processing-skip')).toBe('Yes');
    expect(await shown('processing-enhanced')).toBe(message);
    expect(await page.getByTestId('processing-enhancements').count()).toBe(0);
    expect(await page.getByTestId('processing-result').innerText()).toContain(
      'None: this message is answered',
    );
  });

  it('needs a message that is not only spaces', async () => {
    await login();
    const sent = recordRequests('/api/process-message');
    await page.goto('/admin/input-processing');
    await messageBox().fill('  \t ');
    expect(await processButton().isDisabled()).toBe(true);
    await page.getByTestId('processing-form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await messageBox().fill('Why are my tomato leaves yellow?');
    expect(await processButton().isDisabled()).toBe(false);
    await processAndWait();
    expect(sent).toHaveLength(1);
  });

  it('raises a destructive Processing Error toast when processing fails', async () => {
    await login();
    await page.goto('/admin/input-processing');
    await messageBox().fill('When should I plant garlic?');
    await signOut();
    await processButton().click();
    await expectErrorToast(page, 'Processing Error', 'Failed to process message');
    expect(await page.getByTestId('processing-result').count()).toBe(0);
  });
});

describe('all four screens', () => {
  it('fit a 360 px phone without horizontal scrolling', async () => {
    await login();
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of [
      '/location-test',
      '/admin/location-test',
      '/admin/validation-test',
      '/admin/input-processing',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Example messages' }).waitFor();
      expect({ path, scrolls: await hasHorizontalScroll(page) }).toEqual({ path, scrolls: false });
    }
  });
});
