// Model Management with no OPENAI_API_KEY, in Chromium against the real api-gateway: the server
// cannot check model names then, and the Add Model dialog says so and asks before an unknown name.
import { checkA11y } from '@sprout/testing/browser';
import { useBrowserStack } from '../src/fixtures';
import { toastWithTitle } from '../src/helpers';

const { stack, page, errors } = useBrowserStack({ apiGateway: { openaiApiKey: undefined } });

const savedNames = async (): Promise<string[]> =>
  (await stack.db.dataSource.query<Array<{ name: string }>>('SELECT name FROM ai_models ORDER BY name')).map(
    (m) => m.name,
  );

it('says names cannot be checked without a key, and asks before saving a name it does not know', async () => {
  const adds: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/admin/models')) adds.push(request.url());
  });
  await page.goto('/admin/model-management');
  await page.getByRole('heading', { name: 'Model Management', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Add Model' }).click();
  const dialog = page.getByTestId('add-model-dialog');
  const name = dialog.getByLabel('Model Name');
  await name.focus();
  await dialog
    .getByText('Model names cannot be checked without an OpenAI API key: a name is saved exactly as typed.')
    .waitFor();

  // A misspelling is not saved without a word.
  await name.fill('gpt-4o-minni');
  await dialog.getByRole('button', { name: 'Add Model' }).click();
  const confirm = dialog.getByTestId('confirm-unchecked-name');
  await confirm.getByText('Save “gpt-4o-minni” as typed?').waitFor();
  expect(await confirm.getAttribute('role')).toBe('alert');
  expect(await checkA11y(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Check the Name' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect(adds).toEqual([]);

  // A name of our price table is saved at once.
  await name.fill('gpt-4o-mini');
  await dialog.getByRole('button', { name: 'Add Model' }).click();
  expect(await toastWithTitle(page, 'Model Added')).toMatchObject({ destructive: false });
  await dialog.waitFor({ state: 'detached' });
  expect(await savedNames()).toEqual(['gpt-4o-mini']);

  // Another name is saved once the admin says so.
  await page.getByRole('button', { name: 'Add Model' }).click();
  await name.fill('my-local-model');
  await dialog.getByRole('button', { name: 'Add Model' }).click();
  await confirm.getByRole('button', { name: 'Save Anyway' }).click();
  // The toast of the first add may still be up: wait for this one's own text.
  expect(await toastWithTitle(page, 'my-local-model can now be made live or fallback.')).toMatchObject({
    title: 'Model Added',
  });
  expect(await savedNames()).toEqual(['gpt-4o-mini', 'my-local-model']);
  expect(adds).toHaveLength(2);
  expect(errors).toEqual([]);
});
