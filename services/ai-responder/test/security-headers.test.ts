import { securityHeaders } from '@sprout/platform';
import { securityHeaderGaps, useClosable } from '@sprout/testing';
import { startHarness } from './harness';

describe('ai-responder: the security-header policy on every answer', () => {
  const h = useClosable(() => startHarness());

  it('answers health, metrics, not-found and malformed URLs with it', async () => {
    expect(await securityHeaderGaps(String(h.responder.url), securityHeaders())).toEqual([]);
  });
});
