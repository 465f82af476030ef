// The Image Monitoring screen (/admin/image-monitoring) in Chromium: the api-gateway stack with a
// real image-processor on its queues and no OpenAI key, so photos go through the offline analyser.
import { useBrowserStack } from '../src/fixtures';
import { expectToast, toastWithTitle } from '../src/helpers';
import type { WebStack } from '../src/stack';

const PHONE = '+15035550177';

/** One gardener's two photos: one analysed, one whose image could not be fetched. */
async function seedPhotos(stack: WebStack): Promise<void> {
  const ds = stack.db.dataSource;
  const [user] = await ds.query<Array<{ id: string }>>(
    `INSERT INTO "users" ("phone_number") VALUES ($1) RETURNING "id"`,
    [PHONE],
  );
  const [conversation] = await ds.query<Array<{ id: string }>>(
    `INSERT INTO "conversations" ("user_id") VALUES ($1) RETURNING "id"`,
    [user!.id],
  );
  const insert = (minutesAgo: number, values: unknown[]) =>
    ds.query(
      `INSERT INTO "messages" ("user_id", "conversation_id", "direction", "content", "status", "media",
         "image_processed", "image_content_type", "image_analysis", "token_usage", "cost", "model_used",
         "image_processing_error", "created_at")
       VALUES ($1, $2, 'inbound', $3, 'received', $4::jsonb, $5, $6, $7, $8, $9, $10, $11,
               now() - make_interval(mins => $12))`,
      [user!.id, conversation!.id, ...values, minutesAgo],
    );
  await insert(10, [
    'Are my basil leaves healthy?',
    JSON.stringify([{ url: `${stack.baseUrl}/api/image-samples/leaf.jpg`, contentType: 'image/jpeg' }]),
    true,
    'image/jpeg',
    'A healthy basil leaf.',
    850,
    0.0013,
    'gpt-4o-mini',
    null,
  ]);
  await insert(5, [
    'What is this spot?',
    JSON.stringify([{ url: `${stack.baseUrl}/api/image-samples/missing.jpg`, contentType: 'image/jpeg' }]),
    false,
    null,
    null,
    0,
    0,
    null,
    'Could not fetch the image: HTTP 404',
  ]);
}

const { stack, page, errors } = useBrowserStack({
  setup: async (started) => {
    // The shipped defaults: the console's sample URLs are read in place, loopback never fetched.
    await started.services.imageProcessor({}, {});
    await seedPhotos(started);
  },
});

beforeEach(async () => {
  await page.goto('/admin/image-monitoring');
  await page.getByRole('heading', { name: 'Image Monitoring', level: 1 }).waitFor();
});

const card = (testId: string) => page.getByTestId(testId).innerText();
const openTab = async (name: string) => page.getByRole('tab', { name }).click();

it('Overview: totals of the seeded images', async () => {
  await page.getByTestId('image-total').waitFor();
  expect(await page.getByRole('heading', { name: 'Total Images' }).count()).toBe(1);
  expect(await card('image-total-value')).toBe('2');
  expect(await card('image-processed-value')).toBe('1');
  expect(await card('image-processed-detail')).toBe('50.0% success rate');
  expect(await card('image-errors-value')).toBe('1');
  expect(await card('image-cost-value')).toBe('$0.0013');
  expect(await card('image-tokens-value')).toBe('850');
  expect(await card('image-success-rate-value')).toBe('50.0%');
  expect(errors).toEqual([]);
});

it('Recent Images: newest first, badges, figures, the error, and no broken thumbnail', async () => {
  await openTab('Recent Images');
  const items = page.getByTestId('image-message');
  await items.nth(1).waitFor();
  const [failed, processed] = await items.allInnerTexts();
  expect(failed).toContain('(503) 555-0177');
  expect(failed).toContain('Failed');
  expect(failed).toContain('What is this spot?');
  expect(failed).toContain('Could not fetch the image: HTTP 404');
  expect(processed).toContain('Processed');
  expect(processed).toContain('A healthy basil leaf.');
  expect(processed).toContain('Type: image/jpeg');
  expect(processed).toContain('Tokens: 850');
  expect(processed).toContain('Cost: $0.0013');
  expect(processed).toContain('Model: gpt-4o-mini');
  // The missing picture is hidden once it fails to load; the sample shows.
  await items.nth(0).getByTestId('image-thumbnail').waitFor({ state: 'detached', timeout: 5000 });
  expect(await items.nth(1).getByTestId('image-thumbnail').count()).toBe(1);
});

it('Testing: the validation suite passes every case', async () => {
  await openTab('Testing');
  await page.getByRole('button', { name: 'Run Validation Tests' }).click();
  await expectToast(page, 'Image Validation Test Complete', '8 out of 8 tests passed');
  expect(await page.getByTestId('validation-case').count()).toBe(8);
});

it('Testing: a sample photo is analysed offline; the defaults are a plant question and a sample number', async () => {
  await openTab('Testing');
  expect(await page.getByLabel('Message Text').inputValue()).toBe('What can you tell me about this plant?');
  expect(await page.getByLabel('Phone Number').inputValue()).toBe('+15555550199');
  await page.getByLabel('Image URL').fill(`${stack.baseUrl}/api/image-samples/leaf.png`);
  await page.getByRole('button', { name: 'Test Image Processing' }).click();
  await expectToast(page, 'Image Processing Test Successful', 'Tokens: 0, Cost: $0.0000');
  const analysis = await page.getByTestId('image-test-analysis').innerText();
  expect(analysis).toContain('Offline photo check: 96x72 PNG, 1.8 KB. About 85% green foliage');
  expect(analysis).toContain("I can't identify plants offline; what plant is it and what changed?");

  await openTab('Recent Images');
  const newest = page.getByTestId('image-message').first();
  await newest.filter({ hasText: 'Model: offline-image-analyzer' }).waitFor({ timeout: 15_000 });
  expect(await newest.innerText()).toContain('Processed');
});

it('Testing: a URL the fetcher refuses fails with the reason', async () => {
  await openTab('Testing');
  await page.getByLabel('Image URL').fill('http://10.0.0.1/plant.jpg');
  await page.getByRole('button', { name: 'Test Image Processing' }).click();
  const toast = await toastWithTitle(page, 'Image Processing Test Failed');
  expect(toast.destructive).toBe(true);
  expect(toast.description).toMatch(/Refused to fetch/);
});
