// The conversation simulator and the mobile chat end to end: Chromium against api-gateway,
// ai-responder and sms-gateway in-process (one database, one Redis prefix, the fake Twilio).
// Every reply comes from the real pipeline (offline advisor: no OpenAI key).
import * as fs from 'node:fs';
import type {
  CreateTestUserResponse,
  SimulatorConversationResponse,
  SimulatorMessageResponse,
  TestUserDto,
} from '@sprout/contracts';
import { Message, User } from '@sprout/domain';
import { JobQueues } from '@sprout/platform';
import { checkA11y, hasHorizontalScroll } from '@sprout/testing/browser';
import type { Response } from 'playwright-core';
import { useBrowserStack } from '../src/fixtures';
import { expectErrorToast, toastWithTitle } from '../src/helpers';

const SHOTS = '/tmp/shots';
/** An image address that does not exist: the chat hides the broken image. */
const MISSING_IMAGE = '/admin/assets/missing-photo.jpg';

/** Answers of 400 and above the current page received, as "STATUS METHOD path". */
const failedResponses: string[] = [];

const { stack, page, context, errors, login, openPage } = useBrowserStack({
  responder: true,
  smsGateway: true,
  signedIn: false,
  setup: async ({ db }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    // The model select offers the active models of Model Management, the only ones a test user may have.
    await db.dataSource.query(`INSERT INTO ai_models (name) VALUES ('gpt-4o'), ('gpt-4o-mini')`);
  },
  onPage: (opened) => {
    failedResponses.length = 0;
    opened.on('response', (response: Response) => {
      if (response.status() >= 400) {
        const url = new URL(response.url());
        failedResponses.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
      }
    });
  },
});

/**
 * Browser errors other than failed loads. Failed loads are checked through `failedResponses`
 * instead, which names them: one test shows an image that does not exist.
 */
const unexpectedErrors = () => errors.filter((e) => !e.startsWith('console: Failed to load resource'));
const unexpectedFailures = () => failedResponses.filter((r) => r !== `404 GET ${MISSING_IMAGE}`);

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/simulator-${name}.png`, fullPage: true });

const userRow = (name: string) => page.getByTestId('test-user').filter({ hasText: name });
const bubbles = () => page.getByTestId('chat-message');

async function createTestUserByApi(name: string): Promise<CreateTestUserResponse> {
  const response = await context.request.post('/api/simulator/test-user', { data: { testUserName: name } });
  expect(response.status()).toBe(201);
  return (await response.json()) as CreateTestUserResponse;
}

describe('simulator API through the real pipeline', () => {
  it('answers a test user through sms.inbound, and the reply is never sent by SMS', async () => {
    await login();
    const created = await createTestUserByApi('Pipeline Pia');
    const sent = await context.request.post('/api/simulator/message', {
      data: { userId: created.id, messageContent: 'When should I plant tomatoes? My ZIP is 97214.' },
    });
    expect(sent.status()).toBe(200);
    const answer = (await sent.json()) as SimulatorMessageResponse;
    expect(answer.reply?.direction).toBe('outbound');
    expect(answer.reply?.content.trim().length).toBeGreaterThan(0);
    expect(answer.responseTime).toBeGreaterThanOrEqual(0);
    expect(answer.tokensUsed).toBe(answer.reply?.tokenUsage);
    expect(answer.cost).toBe(answer.reply?.cost);

    const conversation = (await (
      await context.request.get(`/api/simulator/user/${created.id}/conversation`)
    ).json()) as SimulatorConversationResponse;
    expect(conversation.messages.map((m) => m.direction)).toEqual(['inbound', 'outbound']);
    expect(conversation.messages[1]?.id).toBe(answer.reply?.id);
    expect(conversation.analytics.totalMessages).toBe(2);

    // The same queue as SMS: the job is keyed by the inbound message's id.
    const inbound = conversation.messages[0];
    const job = await stack.responder.app
      .get(JobQueues)
      .queue('sms.inbound')
      .getJob(`inbound-${inbound?.id ?? ''}`);
    expect(await job?.getState()).toBe('completed');

    // sms-gateway handles the reply like any other, and marks a test user's reply delivered unsent.
    const messages = stack.db.dataSource.getRepository(Message);
    const deadline = Date.now() + 20_000;
    let status = '';
    while (status !== 'delivered' && Date.now() < deadline) {
      status = (await messages.findOneByOrFail({ id: answer.reply?.id ?? '' })).status;
      if (status !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('delivered');
    const user = await stack.db.dataSource.getRepository(User).findOneByOrFail({ id: created.id });
    expect(stack.sms.twilio.sent.filter((m) => m.to === user.phoneNumber)).toEqual([]);
  });

  it('keeps the chosen model on the test user for the pipeline to use', async () => {
    await login();
    const response = await context.request.post('/api/simulator/test-user', {
      data: { testUserName: 'Model Mo', testUserModel: 'gpt-4o' },
    });
    const created = (await response.json()) as CreateTestUserResponse;
    const user = await stack.db.dataSource.getRepository(User).findOneByOrFail({ id: created.id });
    expect(user).toMatchObject({ isTestUser: true, testUserName: 'Model Mo', testUserModel: 'gpt-4o' });
    const users = (await (await context.request.get('/api/simulator/test-users')).json()) as TestUserDto[];
    expect(users.find((u) => u.id === created.id)?.testUserModel).toBe('gpt-4o');
  });
});

describe('simulator screen', () => {
  it('creates a test user, chats through the pipeline, copies the mobile link and deletes the user', async () => {
    await login();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
    await page.goto('/admin/ai-simulator');
    await page.getByRole('heading', { name: 'Conversation Testing', level: 1 }).waitFor();
    for (const title of ['Test Users', 'User Analytics', 'User Profile', 'How to Use']) {
      await page.getByRole('heading', { name: title, level: 2 }).waitFor();
    }
    expect((await page.getByTestId('test-users-panel').boundingBox())?.height).toBe(900);

    // Validation before anything is sent.
    await page.getByRole('button', { name: 'Create User' }).click();
    await expectErrorToast(page, 'Error', 'Please enter a test user name');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(
      (await toastWithTitle(page, 'Please select a user and enter a message or image URL')).destructive,
    ).toBe(true);

    // Create, with a model from the select.
    await page.getByLabel('Test user name').fill('  Tomato Tess ');
    await page.getByLabel('Model (optional)').click();
    const options = page.getByRole('option');
    await options.first().waitFor();
    await page.getByRole('option', { name: 'Loading models...' }).waitFor({ state: 'detached' });
    expect(await options.first().innerText()).toBe('Default (live model)');
    const model = await options.nth(1).innerText();
    await options.nth(1).click();
    await page.getByRole('button', { name: 'Create User' }).click();
    await toastWithTitle(page, 'Tomato Tess is ready to chat.');
    await userRow('Tomato Tess').waitFor();
    expect(await userRow('Tomato Tess').innerText()).toContain(model);
    await page.waitForURL(/\?user=[0-9a-f-]{36}$/);
    const userId = new URL(page.url()).searchParams.get('user') ?? '';
    expect(
      await userRow('Tomato Tess')
        .getByRole('button', { name: /^Tomato Tess/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await page.getByText('No messages yet. Send the first one below.').waitFor();

    // Shift+Enter adds a line, Enter sends; the reply comes from the pipeline.
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('My tomato leaves have yellow spots.');
    await box.press('Shift+Enter');
    await box.pressSequentially('What should I do?');
    expect(await box.inputValue()).toBe('My tomato leaves have yellow spots.\nWhat should I do?');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('');
    await page
      .locator('[data-testid="chat-message"][data-direction="outbound"]')
      .waitFor({ timeout: 45_000 });
    expect(await bubbles().count()).toBe(2);
    const inbound = bubbles().nth(0);
    const reply = bubbles().nth(1);
    expect(await inbound.getAttribute('data-direction')).toBe('inbound');
    expect(await inbound.getByTestId('message-content').innerText()).toBe(
      'My tomato leaves have yellow spots.\nWhat should I do?',
    );
    expect((await reply.getByTestId('message-content').innerText()).length).toBeGreaterThan(0);
    expect(await reply.getByTestId('message-meta').innerText()).toMatch(
      /\d{1,2}:\d{2} [AP]M\s+[\d,]+ tokens\s+\$\d+\.\d{4}/,
    );
    // The user's messages sit on the right, Sprout's on the left.
    const list = await page.getByTestId('conversation-messages').boundingBox();
    const inboundBox = await inbound.locator('div').first().boundingBox();
    const replyBox = await reply.locator('div').first().boundingBox();
    if (!list || !inboundBox || !replyBox) throw new Error('conversation not laid out');
    expect(Math.round(inboundBox.x + inboundBox.width)).toBe(Math.round(list.x + list.width));
    expect(Math.round(replyBox.x)).toBe(Math.round(list.x));

    await page.getByTestId('analytics-total-messages').filter({ hasText: '2' }).waitFor();
    expect(await page.getByTestId('analytics-primary-model').innerText()).not.toBe('');
    await userRow('Tomato Tess')
      .getByTestId('test-user-messages')
      .filter({ hasText: '2 messages' })
      .waitFor();
    await shot('conversation');
    expect(await checkA11y(page)).toEqual([]);

    // The conversation refreshes by itself (every 2 s): rows written behind the page's back show up,
    // an image that loads is shown and one that does not is hidden.
    const [conversationRow] = await stack.db.dataSource.query<{ conversation_id: string }[]>(
      'SELECT conversation_id FROM messages WHERE user_id = $1 LIMIT 1',
      [userId],
    );
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);
    const insertMessage = (direction: string, content: string, at: Date, imageUrl?: string) =>
      stack.db.dataSource.query(
        `INSERT INTO messages (user_id, conversation_id, direction, content, status, is_test_user, media, created_at)
         VALUES ($1, $2, $3, $4, 'received', true, $5, $6)`,
        [
          userId,
          conversationRow?.conversation_id,
          direction,
          content,
          JSON.stringify(imageUrl ? [{ url: imageUrl, contentType: 'image/jpeg' }] : []),
          at,
        ],
      );
    await insertMessage('inbound', 'Here is my plant.', later(1), `${stack.baseUrl}/admin/favicon.svg`);
    await insertMessage(
      'inbound',
      'And a photo that went missing.',
      later(2),
      `${stack.baseUrl}${MISSING_IMAGE}`,
    );
    await insertMessage('outbound', 'A follow-up tip: water at the base in the morning.', later(3));
    await page.getByText('A follow-up tip: water at the base in the morning.').waitFor();
    const withImage = bubbles().filter({ hasText: 'Here is my plant.' });
    await withImage.getByTestId('message-image').waitFor();
    expect(
      await withImage.getByTestId('message-image').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    await bubbles()
      .filter({ hasText: 'And a photo that went missing.' })
      .getByTestId('message-image')
      .waitFor({ state: 'detached' });
    expect(await bubbles().last().getAttribute('data-direction')).toBe('outbound');
    // Still scrolled to the newest message once the image has grown the conversation.
    await page.waitForFunction(() => {
      const scroller = document.querySelector('[data-testid="conversation-scroll"]');
      return scroller !== null && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 2;
    });
    await shot('images');

    // Copy the mobile chat link.
    await userRow('Tomato Tess')
      .getByRole('button', { name: 'Copy mobile chat link for Tomato Tess' })
      .click();
    await toastWithTitle(page, 'Mobile chat link for Tomato Tess copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${stack.baseUrl}/mobile-conversation/${userId}`,
    );

    // Delete the selected user: gone from the list, the selection cleared.
    // Deleting asks first: Cancel keeps the user, Delete removes them.
    const confirmDialog = page.getByRole('alertdialog', { name: 'Delete Tomato Tess?' });
    await userRow('Tomato Tess').getByRole('button', { name: 'Delete Tomato Tess' }).click();
    await confirmDialog.getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog.waitFor({ state: 'detached' });
    expect(await stack.db.dataSource.getRepository(User).countBy({ id: userId })).toBe(1);
    await userRow('Tomato Tess').getByRole('button', { name: 'Delete Tomato Tess' }).click();
    await confirmDialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await toastWithTitle(page, 'Tomato Tess and their messages are gone.');
    await userRow('Tomato Tess').waitFor({ state: 'detached' });
    await page.waitForURL((url) => !url.searchParams.has('user'));
    await page.getByText('Create or select a test user on the left to start chatting with Sprout.').waitFor();
    expect(await stack.db.dataSource.getRepository(User).countBy({ id: userId })).toBe(0);
    expect(unexpectedErrors()).toEqual([]);
    expect(unexpectedFailures()).toEqual([]);
  });

  it('deletes a user only after a conversation request already sent is answered', async () => {
    await login();
    const created = await createTestUserByApi('Racing Rosa');
    const loaded = page.waitForResponse(
      (r) => r.url().endsWith(`/api/simulator/user/${created.id}/conversation`) && r.status() === 200,
    );
    await page.goto(`/admin/ai-simulator?user=${created.id}`);
    await loaded;
    // Hold the next 2 s poll of the conversation in the browser, as a slow network would.
    let holding = true;
    const release = await new Promise<() => Promise<void>>((arrived) => {
      void page.route(`**/api/simulator/user/${created.id}/conversation`, (route) => {
        if (!holding) return route.continue();
        holding = false;
        arrived(() => route.continue());
        return undefined;
      });
    });
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request.url());
    });
    await userRow('Racing Rosa').getByRole('button', { name: 'Delete Racing Rosa' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete Racing Rosa?' })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await page.waitForTimeout(500);
    expect(deletes).toEqual([]);
    await release();
    await toastWithTitle(page, 'Racing Rosa and their messages are gone.');
    expect(deletes).toHaveLength(1);
    expect(await stack.db.dataSource.getRepository(User).countBy({ id: created.id })).toBe(0);
    expect(unexpectedFailures()).toEqual([]);
  });

  it('shows the URL to copy by hand when the clipboard refuses', async () => {
    await login();
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: () => Promise.reject(new Error('Write permission denied.')) },
      });
    });
    const created = await createTestUserByApi('Clipboard Cleo');
    await page.goto('/ai-conversation-simulator');
    await page.getByTestId('sidebar-nav').waitFor();
    await userRow('Clipboard Cleo')
      .getByRole('button', { name: 'Copy mobile chat link for Clipboard Cleo' })
      .click();
    await expectErrorToast(
      page,
      'Copy Failed',
      `Copy this link by hand: ${stack.baseUrl}/mobile-conversation/${created.id}`,
    );
    await shot('copy-failed');
  });

  it('says why a message or a new user failed, and selects nothing once the user is gone', async () => {
    await login();
    const created = await createTestUserByApi('Vanishing Val');
    await page.goto(`/admin/ai-simulator?user=${created.id}`);
    await page.getByText('No messages yet. Send the first one below.').waitFor();
    // Deleted elsewhere (another admin): sending now fails with the server's reason.
    expect((await context.request.delete(`/api/simulator/test-user/${created.id}`)).status()).toBe(200);
    await page.getByLabel('Message', { exact: true }).fill('Still there?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expectErrorToast(page, 'Error', 'Failed to send message: Test user not found.');
    // Refused, so nothing was stored: the text is back to edit.
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Still there?');
    await page.getByText('This test user no longer exists.').waitFor();

    await page.route('**/api/simulator/test-user', (route) => route.fulfill({ status: 503, body: '' }));
    await page.getByLabel('Test user name').fill('Unlucky Uma');
    await page.getByRole('button', { name: 'Create User' }).click();
    await expectErrorToast(page, 'Error', 'Failed to create user: Service Unavailable');
    await page.route('**/api/simulator/test-user', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Create User' }).click();
    expect((await toastWithTitle(page, 'Failed to create test user')).description).toBe(
      'Failed to create test user',
    );
  });

  it('fits a laptop screen in three columns without sideways scrolling', async () => {
    await openPage({ viewport: { width: 1440, height: 1000 }, signedIn: true });
    const created = await createTestUserByApi('Wide Wendy');
    await page.goto(`/admin/ai-simulator?user=${created.id}`);
    await page.getByText('No messages yet. Send the first one below.').waitFor();
    const left = await page.getByTestId('test-users-panel').boundingBox();
    const centre = await page.getByTestId('conversation-panel').boundingBox();
    const right = await page.getByTestId('user-analytics').boundingBox();
    if (!left || !centre || !right) throw new Error('columns not laid out');
    expect(left.x + left.width).toBeLessThan(centre.x);
    expect(centre.x + centre.width).toBeLessThan(right.x);
    expect(Math.round(left.y)).toBe(Math.round(centre.y));
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot('wide');
  });
});

describe('mobile chat', () => {
  it('sends a signed-out visitor to the login page, saying so', async () => {
    await page.addInitScript(() => {
      const seen = globalThis as unknown as { sawRedirectText: boolean };
      seen.sawRedirectText = false;
      new MutationObserver(() => {
        if (document.body?.innerText.includes('Redirecting to login...')) seen.sawRedirectText = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto('/mobile-conversation/0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10');
    await page.waitForURL('**/admin/login');
    await page.getByTestId('login-form').waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as { sawRedirectText: boolean }).sawRedirectText),
    ).toBe(true);
  });

  it('chats with a test user on a phone-sized screen, with analytics and profile dialogs', async () => {
    await openPage({ viewport: { width: 390, height: 844 }, signedIn: true });
    const created = await createTestUserByApi('Pocket Pete');
    await stack.db.dataSource.query(
      `UPDATE users SET profile = '{"growingContext": "balcony containers", "preferences": ["herbs"]}' WHERE id = $1`,
      [created.id],
    );
    await page.goto(`/mobile-conversation/${created.id}`);
    await page.getByRole('heading', { name: 'Mobile chat Pocket Pete' }).waitFor();
    await page.getByText('Text Sprout a gardening question.').waitFor();

    // The profile first: the pipeline may learn more from the message below.
    await page.getByRole('button', { name: 'Profile' }).click();
    const profile = page.getByRole('dialog', { name: 'User Profile' });
    await profile.waitFor();
    expect(await profile.getByTestId('profile-growing-context').innerText()).toBe('balcony containers');
    expect(await profile.getByTestId('profile-topics').innerText()).toBe('herbs');
    expect(await checkA11y(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await profile.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Send' }).click();
    await expectErrorToast(page, 'Error', 'Please enter a message');

    const box = page.getByLabel('Message', { exact: true });
    await box.fill('How often should I water basil in pots?');
    await box.press('Enter');
    await page
      .locator('[data-testid="chat-message"][data-direction="outbound"]')
      .waitFor({ timeout: 45_000 });
    expect(await bubbles().count()).toBe(2);
    expect(await bubbles().first().getByTestId('message-content').innerText()).toBe(
      'How often should I water basil in pots?',
    );
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot('mobile');

    await page.getByRole('button', { name: 'Analytics' }).click();
    const analytics = page.getByRole('dialog', { name: 'User Analytics' });
    await analytics.waitFor();
    expect(await analytics.getByTestId('analytics-total-messages').innerText()).toBe('2');
    await shot('mobile-analytics');
    await page.keyboard.press('Escape');
    await analytics.waitFor({ state: 'detached' });

    expect(await checkA11y(page)).toEqual([]);
    expect(unexpectedErrors()).toEqual([]);
    expect(unexpectedFailures()).toEqual([]);
  });

  it('says so when the test user does not exist, and offers no message box', async () => {
    await login();
    // An id no user has, and one that is no id at all: neither can be chatted with.
    for (const id of ['0b7b1c5e-2f0a-4a51-9f61-4b1d3a2f9e10', 'unknown-user']) {
      await page.goto(`/mobile-conversation/${id}`);
      await page.getByRole('heading', { name: 'Mobile chat' }).waitFor();
      await page
        .getByText('This test user does not exist. It may have been deleted in Conversation Testing.')
        .waitFor();
      expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
      expect(await page.getByTestId('send-unavailable').innerText()).toBe(
        'Messages cannot be sent: there is no test user with this id.',
      );
    }
  });

  it('disables sending, saying why, while the conversation cannot be loaded', async () => {
    await login();
    const created = await createTestUserByApi('Offline Olive');
    let failing = true;
    await page.route(`**/api/simulator/user/${created.id}/conversation`, (route) =>
      failing ? route.fulfill({ status: 503, body: 'Service Unavailable' }) : route.continue(),
    );
    await page.goto(`/mobile-conversation/${created.id}`);
    await page.getByText('Failed to fetch conversation').waitFor();
    const box = page.getByLabel('Message', { exact: true });
    expect(await box.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('send-unavailable').innerText()).toBe(
      'Messages cannot be sent until the conversation loads. Sprout tries again every 2 seconds.',
    );
    expect(await box.getAttribute('aria-describedby')).toBe('mobile-message-unavailable');
    // Once it loads, the box is back.
    failing = false;
    await page.getByText('Text Sprout a gardening question.').waitFor();
    expect(await box.isEnabled()).toBe(true);
    expect(await page.getByTestId('send-unavailable').count()).toBe(0);
  });

  it('shows a long test-user name in full on hover wherever it is cut', async () => {
    await login();
    const name = 'Gertrude the Extremely Enthusiastic Heirloom Tomato Grower';
    const created = await createTestUserByApi(name);
    await page.goto('/admin/ai-simulator');
    const listed = userRow(name).getByTestId('test-user-name');
    await listed.waitFor();
    expect(await listed.getAttribute('title')).toBe(name);
    expect(await listed.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await openPage({ viewport: { width: 390, height: 844 }, signedIn: true });
    await page.goto(`/mobile-conversation/${created.id}`);
    const header = page.getByTestId('mobile-chat-user');
    await header.filter({ hasText: name }).waitFor();
    expect(await header.getAttribute('title')).toBe(name);
    expect(await header.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  });
});
