// The Model Management screen (/admin/model-management) in Chromium against the real api-gateway,
// with the fake OpenAI server as the provider (its model list through the openai SDK).
import { checkA11y } from '@sprout/testing/browser';
import type { DataSource } from 'typeorm';
import { useBrowserStack } from '../src/fixtures';
import { expectErrorToast, expectToast, toastWithTitle } from '../src/helpers';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Four models (gpt-3.5-turbo inactive), three replies of the last 30 days (800k input and 50k output
 * tokens) whose gardeners answered positively twice and negatively once, and $42 spent today.
 */
async function seed(): Promise<void> {
  await ds.query(
    `INSERT INTO ai_models (name, input_price_per_million, output_price_per_million, max_tokens, is_active, is_live, is_fallback)
     VALUES ('gpt-4o-mini', 0.15, 0.6, 4096, true, true, false),
            ('gpt-4.1-mini', 0.4, 1.6, 2048, true, false, true),
            ('gpt-4o', 2.5, 10, 16384, true, false, false),
            ('gpt-3.5-turbo', 0.5, 1.5, 4096, false, false, false)`,
  );
  const [user] = await ds.query<Array<{ id: string }>>(
    `INSERT INTO users (phone_number) VALUES ('+15035550177') RETURNING id`,
  );
  const [conversation] = await ds.query<Array<{ id: string }>>(
    'INSERT INTO conversations (user_id) VALUES ($1) RETURNING id',
    [user?.id],
  );
  const replies: Array<[string, number, number, number, string, number]> = [
    // model, prompt tokens, completion tokens, cost, the gardener's next message, days ago
    ['gpt-4o-mini', 500_000, 30_000, 0.093, 'positive', 3],
    ['gpt-4o-mini', 100_000, 10_000, 0.021, 'positive', 2],
    ['gpt-4.1-mini', 200_000, 10_000, 0.096, 'negative', 1],
  ];
  for (const [model, prompt, completion, cost, next, daysAgo] of replies) {
    const at = new Date(Date.now() - daysAgo * DAY);
    const [reply] = await ds.query<Array<{ id: string }>>(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, model_used, created_at)
       VALUES ($1, $2, 'outbound', 'advice', 'delivered', $3, $4) RETURNING id`,
      [user?.id, conversation?.id, model, at],
    );
    await ds.query(
      `INSERT INTO messages (user_id, conversation_id, direction, content, status, sentiment, created_at)
       VALUES ($1, $2, 'inbound', 'thanks', 'received', $3, $4)`,
      [user?.id, conversation?.id, next, new Date(at.getTime() + MINUTE)],
    );
    await ds.query(
      `INSERT INTO llm_calls (purpose, tier, model, prompt_tokens, completion_tokens, total_tokens, cost, message_id, user_id, conversation_id, created_at)
       VALUES ('reply', 'primary', $1, $2::int, $3::int, $2::int + $3::int, $4, $5, $6, $7, $8)`,
      [model, prompt, completion, cost, reply?.id, user?.id, conversation?.id, at],
    );
  }
  // Today's spend: $42 (84% of the default $50 limit).
  await ds.query(
    `INSERT INTO llm_calls (purpose, tier, model, cost, created_at) VALUES ('summary', 'primary', 'gpt-4o', 42, $1)`,
    [new Date(Date.now() - MINUTE)],
  );
}

let ds: DataSource;
const { page, errors } = useBrowserStack({
  openai: true,
  setup: async (started) => {
    ds = started.db.dataSource;
    await seed();
  },
});

const rows = () => page.getByTestId('model-row');
const row = (name: string) => page.locator(`[data-testid="model-row"][data-model="${name}"]`);
const namesShown = () =>
  page
    .locator('[data-testid="model-row"] [data-column="name"]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value') ?? ''));
const cell = (name: string, column: string) => row(name).locator(`[data-column="${column}"]`).innerText();
const stored = async (name: string) => {
  const [model] = await ds.query<
    Array<{
      input: string;
      output: string;
      max_tokens: number;
      is_live: boolean;
      is_fallback: boolean;
      is_visible: boolean;
    }>
  >(
    `SELECT input_price_per_million AS input, output_price_per_million AS output, max_tokens, is_live, is_fallback, is_visible
       FROM ai_models WHERE name = $1`,
    [name],
  );
  return model;
};

async function openModels(): Promise<void> {
  await page.goto('/admin/model-management');
  await page.getByRole('heading', { name: 'Model Management', level: 1 }).waitFor();
  await rows().first().waitFor();
}

describe('the models', () => {
  it("says 'Loading models...' while the list loads", async () => {
    await page.route('**/api/admin/models/all', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto('/admin/model-management');
    await page.getByText('Loading models...').waitFor();
    await rows().first().waitFor();
    expect(await page.getByText('Loading models...').count()).toBe(0);
  });

  it('lists them live first, with prices (2 decimals), max tokens, status badges and actions', async () => {
    await openModels();
    expect(await namesShown()).toEqual(['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-4o', 'gpt-3.5-turbo']);
    const headers = await page.getByTestId('models-table').locator('thead th').allInnerTexts();
    expect(headers.map((h) => h.trim().toUpperCase())).toEqual([
      'MODEL',
      'INPUT PRICE',
      'OUTPUT PRICE',
      'MAX TOKENS',
      'STATUS',
      'ACTIONS',
    ]);
    expect({
      input: await cell('gpt-4o-mini', 'inputPricePerMillion'),
      output: await cell('gpt-4o-mini', 'outputPricePerMillion'),
      maxTokens: await cell('gpt-4o', 'maxTokens'),
    }).toEqual({ input: '$0.15', output: '$0.60', maxTokens: '16,384' });
    const badges = async (name: string) =>
      row(name).getByTestId('model-status').locator('span').allInnerTexts();
    expect(await badges('gpt-4o-mini')).toEqual(['Live', 'Active']);
    expect(await badges('gpt-4.1-mini')).toEqual(['Fallback', 'Active']);
    expect(await badges('gpt-4o')).toEqual(['Active']);
    expect(await badges('gpt-3.5-turbo')).toEqual(['Inactive']);

    // Set Live: not on the live model nor an inactive one; Set Fallback likewise.
    const enabled = async (name: string, action: string) =>
      row(name).getByRole('button', { name: action }).isEnabled();
    expect(await enabled('gpt-4o-mini', 'Set Live')).toBe(false);
    expect(await enabled('gpt-3.5-turbo', 'Set Live')).toBe(false);
    expect(await enabled('gpt-3.5-turbo', 'Set Fallback')).toBe(false);
    expect(await enabled('gpt-4.1-mini', 'Set Fallback')).toBe(false);
    expect(await enabled('gpt-4o', 'Set Live')).toBe(true);
    expect(await enabled('gpt-4o', 'Set Fallback')).toBe(true);

    const pricing = page.getByRole('link', { name: 'OpenAI Pricing' });
    expect(await pricing.getAttribute('href')).toBe('https://openai.com/api/pricing/');
    expect(await pricing.getAttribute('target')).toBe('_blank');
    expect(await page.getByTestId('save-changes').count()).toBe(0);
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('sorts by Model, Input Price, Output Price and Max Tokens, toggling on a second click', async () => {
    await openModels();
    const sortBy = (label: string) => page.getByRole('button', { name: label, exact: true }).click();
    await sortBy('Input Price');
    expect(await namesShown()).toEqual(['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-3.5-turbo', 'gpt-4o']);
    expect(await page.locator('th[data-column="inputPricePerMillion"]').getAttribute('aria-sort')).toBe(
      'ascending',
    );
    await sortBy('Input Price');
    expect(await namesShown()).toEqual(['gpt-4o', 'gpt-3.5-turbo', 'gpt-4.1-mini', 'gpt-4o-mini']);
    expect(await page.locator('th[data-column="inputPricePerMillion"]').getAttribute('aria-sort')).toBe(
      'descending',
    );
    await sortBy('Model');
    expect(await namesShown()).toEqual(['gpt-3.5-turbo', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini']);
    await sortBy('Max Tokens');
    expect(await namesShown()).toEqual(['gpt-4.1-mini', 'gpt-3.5-turbo', 'gpt-4o-mini', 'gpt-4o']);
    await sortBy('Output Price');
    await sortBy('Output Price');
    expect(await namesShown()).toEqual(['gpt-4o', 'gpt-4.1-mini', 'gpt-3.5-turbo', 'gpt-4o-mini']);
  });
});

describe('editing', () => {
  it('holds edits per model until Save Changes saves them all, and cancel drops them', async () => {
    await openModels();
    await row('gpt-4o').getByRole('button', { name: 'Edit gpt-4o' }).click();
    await page.getByLabel('Input price of gpt-4o', { exact: true }).fill('3');
    await page.getByLabel('Output price of gpt-4o', { exact: true }).fill('12.5');
    await row('gpt-4.1-mini').getByRole('button', { name: 'Edit gpt-4.1-mini' }).click();
    await page.getByLabel('Max tokens of gpt-4.1-mini', { exact: true }).fill('3000');
    // A third row edited, then cancelled: its edit is dropped.
    await row('gpt-4o-mini').getByRole('button', { name: 'Edit gpt-4o-mini' }).click();
    await page.getByLabel('Input price of gpt-4o-mini', { exact: true }).fill('9');
    await row('gpt-4o-mini').getByRole('button', { name: 'Cancel editing gpt-4o-mini' }).click();
    expect(await cell('gpt-4o-mini', 'inputPricePerMillion')).toBe('$0.15');

    const save = page.getByTestId('save-changes');
    await save.click();
    await expectToast(page, 'Model Updated', 'Saved changes to 2 models.');
    await page.waitForFunction(() => document.querySelectorAll('[data-editing="true"]').length === 0);
    expect(await cell('gpt-4o', 'inputPricePerMillion')).toBe('$3.00');
    expect(await cell('gpt-4o', 'outputPricePerMillion')).toBe('$12.50');
    expect(await cell('gpt-4.1-mini', 'maxTokens')).toBe('3,000');
    expect(await save.count()).toBe(0);
    expect(await stored('gpt-4o')).toMatchObject({ input: '3.000000', output: '12.500000' });
    expect((await stored('gpt-4.1-mini'))?.max_tokens).toBe(3000);
    expect((await stored('gpt-4o-mini'))?.input).toBe('0.150000');
  });

  it('saves one row with its own save button', async () => {
    await openModels();
    await row('gpt-4o').getByRole('button', { name: 'Edit gpt-4o' }).click();
    await page.getByLabel('Output price of gpt-4o', { exact: true }).fill('10');
    await row('gpt-4o').getByRole('button', { name: 'Save gpt-4o' }).click();
    expect((await toastWithTitle(page, 'Model Updated')).description).toBe('gpt-4o was saved.');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-model="gpt-4o"] [data-column="outputPricePerMillion"]')?.textContent ===
        '$10.00',
    );
    expect((await stored('gpt-4o'))?.output).toBe('10.000000');
  });
});

describe('live and fallback', () => {
  it('sets the live model through the confirmation, with both costs and the change on real usage', async () => {
    await openModels();
    await row('gpt-4o').getByRole('button', { name: 'Set Live' }).click();
    const dialog = page.getByTestId('change-live-dialog');
    await dialog.waitFor();
    const costs = async (which: 'current' | 'new') => {
      const box = dialog.getByTestId(`cost-${which}`);
      return {
        name: await box.getByTestId('cost-model-name').innerText(),
        input: await box.getByTestId('cost-input').innerText(),
        output: await box.getByTestId('cost-output').innerText(),
        average: await box.getByTestId('cost-average').innerText(),
      };
    };
    expect(await costs('current')).toEqual({
      name: 'gpt-4o-mini',
      input: '$0.15',
      output: '$0.60',
      average: '$0.38',
    });
    expect(await costs('new')).toEqual({
      name: 'gpt-4o',
      input: '$3.00',
      output: '$10.00',
      average: '$6.50',
    });
    // 800k input and 50k output tokens: $0.15 with gpt-4o-mini, $2.90 with gpt-4o.
    expect(await dialog.getByTestId('cost-change-label').innerText()).toBe('Increase');
    expect(await dialog.getByTestId('cost-change-percent').innerText()).toBe('+1833.33%');
    expect(await dialog.getByTestId('cost-change-dollars').innerText()).toBe('+$2.7500');
    expect(await dialog.getByTestId('cost-basis').innerText()).toContain(
      'last 30 days of replies (3 replies: 800,000 input and 50,000 output tokens',
    );
    expect(await checkA11y(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await stored('gpt-4o'))?.is_live).toBe(false);

    await row('gpt-4o').getByRole('button', { name: 'Set Live' }).click();
    await dialog.getByRole('button', { name: 'Confirm Change' }).click();
    expect(await toastWithTitle(page, 'Primary Model Updated')).toMatchObject({
      description: 'gpt-4o now answers texts.',
    });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="model-row"]')?.getAttribute('data-model') === 'gpt-4o',
    );
    expect(await row('gpt-4o').getByTestId('model-status').innerText()).toContain('Live');
    expect(await row('gpt-4o').getByRole('button', { name: 'Set Live' }).isEnabled()).toBe(false);
    expect((await stored('gpt-4o'))?.is_live).toBe(true);
    expect((await stored('gpt-4o-mini'))?.is_live).toBe(false);
  });

  it('promotes the fallback, naming the model that takes its place, and sets a new fallback', async () => {
    await openModels();
    await row('gpt-4.1-mini').getByRole('button', { name: 'Set Live' }).click();
    const dialog = page.getByTestId('change-live-dialog');
    expect(await dialog.getByTestId('cost-change-label').innerText()).toBe('Decrease');
    expect(await dialog.getByTestId('cost-swap-note').innerText()).toBe(
      'gpt-4.1-mini is the fallback model now: gpt-4o becomes the fallback.',
    );
    await dialog.getByRole('button', { name: 'Confirm Change' }).click();
    await toastWithTitle(page, 'Primary Model Updated');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="model-row"]')?.getAttribute('data-model') === 'gpt-4.1-mini',
    );
    expect(await namesShown()).toEqual(['gpt-4.1-mini', 'gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo']);

    await row('gpt-4o-mini').getByRole('button', { name: 'Set Fallback' }).click();
    expect(await toastWithTitle(page, 'Fallback Model Set')).toMatchObject({ destructive: false });
    await page.waitForFunction(() =>
      document
        .querySelector('[data-model="gpt-4o-mini"] [data-testid="model-status"]')
        ?.textContent?.includes('Fallback'),
    );
    expect((await stored('gpt-4o-mini'))?.is_fallback).toBe(true);
    expect((await stored('gpt-4o'))?.is_fallback).toBe(false);
  });

  it('sets the live model directly when none is live', async () => {
    await ds.query('UPDATE ai_models SET is_live = false');
    await openModels();
    await row('gpt-4o').getByRole('button', { name: 'Set Live' }).click();
    await toastWithTitle(page, 'Primary Model Updated');
    expect(await page.getByTestId('change-live-dialog').count()).toBe(0);
    expect((await stored('gpt-4o'))?.is_live).toBe(true);
  });

  it('removes a model from the list, and refuses to remove the live one', async () => {
    await openModels();
    await row('gpt-4o').getByRole('button', { name: 'Edit gpt-4o' }).click();
    expect(await row('gpt-4o').getByRole('button', { name: 'Delete gpt-4o' }).isEnabled()).toBe(false);
    await row('gpt-4o').getByRole('button', { name: 'Cancel editing gpt-4o' }).click();
    await row('gpt-3.5-turbo').getByRole('button', { name: 'Edit gpt-3.5-turbo' }).click();
    // Removing asks first: Cancel keeps the model, Remove Model hides it.
    const confirm = page.getByRole('alertdialog', { name: 'Remove gpt-3.5-turbo?' });
    await row('gpt-3.5-turbo').getByRole('button', { name: 'Delete gpt-3.5-turbo' }).click();
    await confirm.getByText('Adding the same name again brings it back.').waitFor();
    expect(await checkA11y(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await stored('gpt-3.5-turbo'))?.is_visible).toBe(true);
    await row('gpt-3.5-turbo').getByRole('button', { name: 'Delete gpt-3.5-turbo' }).click();
    await confirm.getByRole('button', { name: 'Remove Model' }).click();
    expect(await toastWithTitle(page, 'Model Removed')).toMatchObject({
      description: 'gpt-3.5-turbo is hidden from the list.',
    });
    await row('gpt-3.5-turbo').waitFor({ state: 'detached' });
    expect((await stored('gpt-3.5-turbo'))?.is_visible).toBe(false);
  });
});

describe('adding a model', () => {
  it("checks the name against OpenAI's models and the numbers against the form's rules", async () => {
    await openModels();
    let releaseList: () => void = () => undefined;
    await page.route('**/api/admin/models/openai-models', async (route) => {
      await new Promise<void>((resolve) => {
        releaseList = resolve;
      });
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add Model' }).click();
    const dialog = page.getByTestId('add-model-dialog');
    await dialog.getByRole('heading', { name: 'Add/Update AI Model' }).waitFor();
    const submit = dialog.getByRole('button', { name: 'Add Model' });
    expect(await submit.isEnabled()).toBe(false);
    expect(await dialog.getByLabel('Max Tokens').inputValue()).toBe('4096');
    expect(await dialog.getByLabel('Input Price').getAttribute('step')).toBe('0.01');

    const name = dialog.getByLabel('Model Name');
    await name.focus();
    await dialog.getByText('Loading valid OpenAI models...').waitFor();
    releaseList();
    await dialog.getByText('Loading valid OpenAI models...').waitFor({ state: 'detached' });
    await name.fill('gpt-4o-mni');
    await dialog.getByText('Model not found in OpenAI. Please check spelling.').waitFor();

    // Empty max tokens becomes 0; beyond 2,000,000 is 2,000,000.
    const maxTokens = dialog.getByLabel('Max Tokens');
    await maxTokens.fill('');
    await maxTokens.blur();
    expect(await maxTokens.inputValue()).toBe('0');
    await maxTokens.fill('2500000');
    await maxTokens.blur();
    expect(await maxTokens.inputValue()).toBe('2000000');

    await submit.click();
    await expectErrorToast(
      page,
      'Add Failed',
      'Model "gpt-4o-mni" is not a valid OpenAI model. Please check the model name.',
    );

    await name.fill('gpt-5-mini');
    expect(await dialog.getByTestId('model-name-hint').innerText()).toBe('');
    await dialog.getByLabel('Input Price').fill('0.25');
    await dialog.getByLabel('Output Price').fill('2');
    await maxTokens.fill('8000');
    await submit.click();
    expect(await toastWithTitle(page, 'Model Added')).toMatchObject({ destructive: false });
    await dialog.waitFor({ state: 'detached' });
    await row('gpt-5-mini').waitFor();
    expect(await cell('gpt-5-mini', 'inputPricePerMillion')).toBe('$0.25');
    expect(await cell('gpt-5-mini', 'maxTokens')).toBe('8,000');
  });

  it('adding a removed name updates it and shows it again', async () => {
    await openModels();
    await page.getByRole('button', { name: 'Add Model' }).click();
    const dialog = page.getByTestId('add-model-dialog');
    await dialog.getByLabel('Model Name').fill('gpt-3.5-turbo');
    await dialog.getByRole('button', { name: 'Add Model' }).click();
    expect(await toastWithTitle(page, 'Model Updated')).toMatchObject({
      description: 'gpt-3.5-turbo was updated and is visible again.',
    });
    await row('gpt-3.5-turbo').waitFor();
    expect(await row('gpt-3.5-turbo').getByTestId('model-status').innerText()).toBe('Active');
  });
});

describe('spend and usage', () => {
  it('warns from 80% of the daily limit with spend, limit and percent, and the limit can be raised', async () => {
    await openModels();
    const banner = page.getByTestId('spending-banner');
    await banner.waitFor();
    expect({
      spend: await banner.getByTestId('spending-banner-spend').innerText(),
      limit: await banner.getByTestId('spending-banner-limit').innerText(),
      percent: await banner.getByTestId('spending-banner-percent').innerText(),
    }).toEqual({ spend: '$42.0000', limit: '$50.00', percent: '84.0%' });

    await page.getByLabel('Limit per day (USD)').fill('100');
    await page.getByRole('button', { name: 'Save Limit' }).click();
    expect(await toastWithTitle(page, 'Spending Limit Updated')).toMatchObject({
      description: 'Replies may spend up to $100.00 a day.',
    });
    await banner.waitFor({ state: 'detached' });
    const [limit] = await ds.query<Array<{ value: number }>>(
      `SELECT value FROM settings WHERE key = 'spending_limit'`,
    );
    expect(limit?.value).toBe(100);
  });

  it("checks the limit in the field against the server's bounds, and asks before a limit of $0", async () => {
    await openModels();
    const field = page.getByLabel('Limit per day (USD)');
    const save = page.getByRole('button', { name: 'Save Limit' });
    const hint = page.getByTestId('spending-limit-hint');
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/admin/models/spending-limit')) saves.push(request.postData() ?? '');
    });
    for (const [typed, message] of [
      ['-5', 'The limit must be 0 or more'],
      ['1000001', 'The limit must be at most 1000000'],
      ['abc', 'The limit must be a number of dollars'],
      ['12abc', 'The limit must be a number of dollars'],
      ['', 'Enter a limit in dollars, e.g. 50'],
    ] as const) {
      await field.fill(typed);
      expect({ typed, hint: await hint.innerText() }).toEqual({ typed, hint: message });
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await save.isDisabled()).toBe(true);
      await field.press('Enter');
    }
    expect(saves).toEqual([]);

    // $0 warns, and is saved only once confirmed.
    await field.fill('0');
    expect(await hint.innerText()).toContain('no model calls will be made');
    await save.click();
    const confirm = page.getByRole('alertdialog', { name: 'Set the daily limit to $0?' });
    await confirm.getByText(/no model calls will be made/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(saves).toEqual([]);
    await save.click();
    await confirm.getByRole('button', { name: 'Set Limit to $0' }).click();
    expect(await toastWithTitle(page, 'Spending Limit Updated')).toMatchObject({
      description: 'Replies may spend up to $0.00 a day.',
    });
    expect(saves).toEqual([JSON.stringify({ spendingLimit: 0 })]);

    await field.fill('1000000');
    expect(await hint.innerText()).toBe('');
    await save.click();
    await toastWithTitle(page, 'Replies may spend up to $1,000,000.00 a day.');
    const [limit] = await ds.query<Array<{ value: number }>>(
      `SELECT value FROM settings WHERE key = 'spending_limit'`,
    );
    expect(limit?.value).toBe(1_000_000);
    expect(errors).toEqual([]);
  });

  it('lists usage per model with sentiment in colour and CAAS TBD, or says there is none', async () => {
    await openModels();
    const usage = page.getByTestId('model-usage');
    await usage.getByTestId('model-usage-row').first().waitFor();
    const usageRow = (name: string) => usage.locator(`[data-testid="model-usage-row"][data-model="${name}"]`);
    const column = (name: string, key: string) => usageRow(name).locator(`[data-column="${key}"]`);
    expect(
      await usage
        .getByTestId('model-usage-row')
        .evaluateAll((r) => r.map((e) => e.getAttribute('data-model'))),
    ).toEqual(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini']);
    expect({
      messages: await column('gpt-4o-mini', 'totalMessages').innerText(),
      tokens: await column('gpt-4o-mini', 'totalTokensUsed').innerText(),
      spent: await column('gpt-4o-mini', 'totalCost').innerText(),
      sentiment: await column('gpt-4o-mini', 'avgSentiment').innerText(),
      tone: await column('gpt-4o-mini', 'avgSentiment').getAttribute('data-tone'),
      caas: await column('gpt-4o-mini', 'caas').innerText(),
    }).toEqual({
      messages: '2',
      tokens: '640,000',
      spent: '$0.1140',
      sentiment: '+1.00',
      tone: 'positive',
      caas: 'TBD',
    });
    expect(await column('gpt-4.1-mini', 'avgSentiment').getAttribute('data-tone')).toBe('negative');
    expect(await column('gpt-4.1-mini', 'avgSentiment').evaluate((e) => getComputedStyle(e).color)).not.toBe(
      await column('gpt-4o-mini', 'avgSentiment').evaluate((e) => getComputedStyle(e).color),
    );

    await page.getByRole('switch', { name: 'Test Data Mode' }).click();
    await usage.getByTestId('model-usage-empty').waitFor();
    expect(await usage.getByTestId('model-usage-empty').innerText()).toBe('No usage data available');
    expect(await checkA11y(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('the simulator', () => {
  it('offers the active models of Model Management in its model picker', async () => {
    await ds.query(`UPDATE ai_models SET is_active = false WHERE name = 'gpt-3.5-turbo'`);
    await page.goto('/admin/ai-simulator');
    await page.getByLabel('Model (optional)').click();
    await page.getByRole('option', { name: 'Loading models...' }).waitFor({ state: 'detached' });
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual(['Default (live model)', 'gpt-4o', 'gpt-4o-mini', 'gpt-4.1-mini', 'gpt-5-mini']);
  });
});
