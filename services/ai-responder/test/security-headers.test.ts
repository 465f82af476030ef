import { securityHeaders } from '@sprout/platform';
import { securityHeaderGaps } from '@sprout/testing';
import { type Harness, startHarness } from './harness';

describe('ai-responder: the security-header policy on every answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers health, metrics, not-found and malformed URLs with it', async () => {
    expect(await securityHeaderGaps(String(h.responder.url), securityHeaders())).toEqual([]);
  });
});
