import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { FakeTwilio } from '@sprout/testing';
import {
  SmsSendError,
  TwilioSmsProvider,
  nextStatus,
  parseDeliveryStatus,
  validateTwilioSignature,
  type SmsDeliveryStatus,
} from '@sprout/sms';

const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
const AUTH_TOKEN = 'provider-test-token';
const FROM = '+15005550006';
const TO = '+15551234567';

interface ReceivedCallback {
  params: Record<string, string>;
  signatureValid: boolean;
}

/** A status callback receiver that checks signatures the way sms-gateway will. */
async function startCallbackReceiver(): Promise<{
  url: string;
  received: ReceivedCallback[];
  close: () => Promise<void>;
}> {
  const received: ReceivedCallback[] = [];
  let url = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const signatureValid = validateTwilioSignature({
        authToken: AUTH_TOKEN,
        url: `${url}${req.url ?? ''}`,
        params,
        signature: req.headers['x-twilio-signature'],
      });
      received.push({ params, signatureValid });
      res.writeHead(signatureValid ? 204 : 403).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function sendError(promise: Promise<unknown>): Promise<SmsSendError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SmsSendError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('TwilioSmsProvider against the fake Twilio', () => {
  let fake: FakeTwilio;
  let receiver: Awaited<ReturnType<typeof startCallbackReceiver>>;
  let provider: TwilioSmsProvider;

  beforeAll(async () => {
    fake = await FakeTwilio.start({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, callbackDelayMs: 5 });
    receiver = await startCallbackReceiver();
    provider = new TwilioSmsProvider({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiBaseUrl: fake.url,
      timeoutMs: 2_000,
    });
  });

  afterAll(async () => {
    await fake.close();
    await receiver.close();
  });

  beforeEach(() => {
    fake.reset();
    fake.sendOutOfOrder = false;
    receiver.received.length = 0;
  });

  it('sends a message and receives signed status callbacks up to delivered', async () => {
    const callbackUrl = `${receiver.url}/webhooks/twilio/status?message=42`;
    const result = await provider.send({
      to: TO,
      from: FROM,
      body: 'Plant garlic in October.',
      mediaUrls: ['https://example.com/a.jpg'],
      statusCallbackUrl: callbackUrl,
    });
    expect(result.providerSid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(result.status).toBe('queued');
    expect(result.segments).toBe(1);

    const [message] = await fake.waitForMessages(1);
    expect(message).toMatchObject({
      sid: result.providerSid,
      to: TO,
      from: FROM,
      body: 'Plant garlic in October.',
      mediaUrls: ['https://example.com/a.jpg'],
      statusCallback: callbackUrl,
    });

    const callbacks = await fake.waitForCallbacks(2);
    expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['sent', 'delivered']);
    expect(callbacks.every((c) => c.responseStatus === 204)).toBe(true);
    expect(receiver.received.every((c) => c.signatureValid)).toBe(true);
    expect(receiver.received[1]?.params).toMatchObject({
      MessageSid: result.providerSid,
      MessageStatus: 'delivered',
      SmsStatus: 'delivered',
      AccountSid: ACCOUNT_SID,
      To: TO,
      From: FROM,
    });

    await expect(provider.fetchStatus(result.providerSid)).resolves.toEqual({
      status: 'delivered',
      errorCode: null,
      errorMessage: null,
    });
  });

  it('reports the segments Twilio counted for a long message', async () => {
    const result = await provider.send({ to: TO, from: FROM, body: 'x'.repeat(200) });
    expect(result.segments).toBe(2);
  });

  it('finds a message it sent by recipient, sender and body (punctuation aside), not one sent before `since`', async () => {
    const since = new Date(Date.now() - 1_000);
    const sent = await provider.send({ to: TO, from: FROM, body: `Plant garlic now. ${'x'.repeat(200)}` });
    await expect(
      provider.findSent({ to: TO, from: FROM, body: `Plant garlic, now! ${'x'.repeat(200)}`, since }),
    ).resolves.toMatchObject({ providerSid: sent.providerSid, segments: 2 });
    await expect(
      provider.findSent({ to: TO, from: FROM, body: 'Something else', since }),
    ).resolves.toBeNull();
    await expect(
      provider.findSent({
        to: TO,
        from: FROM,
        body: 'Plant garlic now.',
        since: new Date(Date.now() + 60_000),
      }),
    ).resolves.toBeNull();
  });

  it('reports an undelivered message with its error code', async () => {
    fake.nextOutcome({ status: 'undelivered', errorCode: 30003 });
    const { providerSid } = await provider.send({
      to: TO,
      from: FROM,
      body: 'hello',
      statusCallbackUrl: receiver.url,
    });
    const callbacks = await fake.waitForCallbacks(2);
    expect(callbacks[1]?.params).toMatchObject({ MessageStatus: 'undelivered', ErrorCode: '30003' });
    await expect(provider.fetchStatus(providerSid)).resolves.toEqual({
      status: 'undelivered',
      errorCode: 30003,
      errorMessage: 'Unreachable destination handset',
    });
  });

  it('keeps delivered when a late sent arrives out of order', async () => {
    fake.sendOutOfOrder = true;
    await provider.send({ to: TO, from: FROM, body: 'hello', statusCallbackUrl: receiver.url });
    const callbacks = await fake.waitForCallbacks(2);
    expect(callbacks.map((c) => c.params.MessageStatus)).toEqual(['delivered', 'sent']);
    let status: SmsDeliveryStatus = 'queued';
    for (const c of callbacks)
      status = nextStatus(status, parseDeliveryStatus(c.params.MessageStatus) ?? status);
    expect(status).toBe('delivered');
  });

  it('wraps 429 as a retryable error, and the next send succeeds', async () => {
    fake.failNext({ status: 429 });
    const error = await sendError(provider.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: true, kind: 'rate_limit', status: 429, code: 20429 });
    await expect(provider.send({ to: TO, from: FROM, body: 'hello' })).resolves.toMatchObject({
      status: 'queued',
    });
  });

  it('wraps 500 as a retryable server error', async () => {
    fake.failNext({ status: 500 });
    const error = await sendError(provider.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: true, kind: 'server', status: 500 });
  });

  it('wraps 21610 (unsubscribed recipient) as permanent', async () => {
    fake.failNext({ status: 400, code: 21610 });
    const error = await sendError(provider.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: false, kind: 'rejected', status: 400, code: 21610 });
    expect(error.message).toBe('Attempt to send to unsubscribed recipient');

    fake.optOut(TO);
    const again = await sendError(provider.send({ to: TO, from: FROM, body: 'hello' }));
    expect(again).toMatchObject({ retryable: false, code: 21610 });
  });

  it('wraps an invalid number (21211) as permanent', async () => {
    const error = await sendError(provider.send({ to: '12345', from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: false, status: 400, code: 21211 });
    expect(fake.sent).toHaveLength(0);
  });

  it('wraps a timeout as retryable', async () => {
    const impatient = new TwilioSmsProvider({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiBaseUrl: fake.url,
      timeoutMs: 200,
    });
    fake.delayNext(3_000);
    const error = await sendError(impatient.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: true, kind: 'timeout' });
    expect(error.status).toBeUndefined();
  });

  it('wraps an unreachable API as a retryable network error', async () => {
    const closed = await FakeTwilio.start({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    const deadUrl = closed.url;
    await closed.close();
    const offline = new TwilioSmsProvider({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiBaseUrl: deadUrl,
    });
    const error = await sendError(offline.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: true, kind: 'network' });
  });

  it('wraps bad credentials as permanent', async () => {
    const wrong = new TwilioSmsProvider({ accountSid: ACCOUNT_SID, authToken: 'nope', apiBaseUrl: fake.url });
    const error = await sendError(wrong.send({ to: TO, from: FROM, body: 'hello' }));
    expect(error).toMatchObject({ retryable: false, status: 401, code: 20003 });
  });

  it('keeps one connection to Twilio open across sends (keep-alive), not one per send', async () => {
    // A TCP relay in front of the fake Twilio counts the connections the SDK opens.
    const sockets: net.Socket[] = [];
    const target = new URL(fake.url);
    const proxy = net.createServer((socket) => {
      sockets.push(socket);
      const upstream = net.connect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const viaProxy = new TwilioSmsProvider({
        accountSid: ACCOUNT_SID,
        authToken: AUTH_TOKEN,
        apiBaseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      });
      for (let i = 0; i < 5; i += 1) await viaProxy.send({ to: TO, from: FROM, body: `keep-alive ${i}` });
      expect(sockets.length).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('wraps a status fetch for an unknown sid as permanent', async () => {
    const error = await sendError(provider.fetchStatus(`SM${'0'.repeat(32)}`));
    expect(error).toMatchObject({ retryable: false, status: 404, code: 20404 });
  });
});

describe('validateTwilioSignature', () => {
  const url = 'https://sprout.example.com/webhooks/twilio/sms';
  const params = {
    From: '+15551234567',
    To: '+15005550006',
    Body: 'When do I plant peas?',
    MessageSid: 'SMabc',
  };

  it('accepts Twilio’s signature and rejects a wrong one', async () => {
    const fake = await FakeTwilio.start({ authToken: AUTH_TOKEN });
    try {
      const signature = fake.signWebhook(url, params);
      expect(validateTwilioSignature({ authToken: AUTH_TOKEN, url, params, signature })).toBe(true);
      expect(validateTwilioSignature({ authToken: 'other', url, params, signature })).toBe(false);
      expect(
        validateTwilioSignature({
          authToken: AUTH_TOKEN,
          url,
          params: { ...params, Body: 'tampered' },
          signature,
        }),
      ).toBe(false);
      expect(validateTwilioSignature({ authToken: AUTH_TOKEN, url: `${url}?x=1`, params, signature })).toBe(
        false,
      );
      expect(validateTwilioSignature({ authToken: AUTH_TOKEN, url, params, signature: undefined })).toBe(
        false,
      );
    } finally {
      await fake.close();
    }
  });
});
