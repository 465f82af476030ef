import { securityHeaders } from '@sprout/platform';
import { securityHeaderGaps } from '@sprout/testing';
import { type GatewayHarness, nextPhone, startGateway } from './harness';

const headersOf = (response: Response): Record<string, string> => Object.fromEntries(response.headers);

describe('sms-gateway: the security-header policy on every answer', () => {
  const policy = securityHeaders();
  let h: GatewayHarness;
  let inboundUrl: string;

  beforeAll(async () => {
    h = await startGateway();
    inboundUrl = `${h.baseUrl}/webhooks/twilio/sms`;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('on the TwiML answer of a signed webhook', async () => {
    const answer = await h.twilio.sendInbound(inboundUrl, {
      From: nextPhone(),
      To: '+15005550006',
      Body: 'When do I plant garlic?',
      MessageSid: 'SMheaders000000000000000000000001',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<Response>');
    expect(answer.headers).toMatchObject(policy);
  });

  it('on the 403 of a forged signature', async () => {
    const answer = await h.twilio.sendInbound(
      inboundUrl,
      { From: nextPhone(), To: '+15005550006', Body: 'hi', MessageSid: 'SMheaders000000000000000000000002' },
      { authToken: 'not-the-real-token' },
    );
    expect(answer.status).toBe(403);
    expect(answer.headers).toMatchObject(policy);
  });

  it('on health, metrics, a route that does not exist and a malformed URL', async () => {
    expect(await securityHeaderGaps(h.baseUrl, policy)).toEqual([]);
  });

  it('on the 400 of a malformed body', async () => {
    const malformed = await fetch(`${h.baseUrl}/webhooks/twilio/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"not json',
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expect(headersOf(malformed)).toMatchObject(policy);
  });
});
