import { formatMonthDay, frostDatesForZone, hardinessZoneForZip } from '@sprout/gardening';
import { MESSAGE_REVEAL_DELAY_MS, sampleConversation } from '../src/components/sample-conversation';
import { waitlistRequest, waitlistToasts } from '../src/components/waitlist';

describe('sample conversation', () => {
  it('has six messages revealed every 800 ms, alternating gardener and Sprout', () => {
    expect(sampleConversation).toHaveLength(6);
    expect(MESSAGE_REVEAL_DELAY_MS).toBe(800);
    expect(sampleConversation.map((m) => m.from)).toEqual([
      'gardener',
      'sprout',
      'gardener',
      'sprout',
      'gardener',
      'sprout',
    ]);
  });

  it("gives the zone and last frost Sprout's own lookups give for the ZIP the gardener texts", () => {
    const zip = /\b(\d{5})\b/.exec(sampleConversation[0]?.text ?? '')?.[1] ?? '';
    const answer = sampleConversation[1]?.text ?? '';
    const zone = hardinessZoneForZip(zip)?.zone;
    expect(zone).toBeDefined();
    expect(/\bzone (\d{1,2}[ab])\b/.exec(answer)?.[1]).toBe(zone);
    const frost = frostDatesForZone(zone ?? '');
    expect(answer).toContain(`last frost around ${formatMonthDay(frost?.lastSpringFrost ?? '')}`);
  });
});

describe('waitlistRequest', () => {
  it('sends the zip code as region', () => {
    expect(waitlistRequest(' ann@example.com ', ' 94117 ')).toEqual({
      email: 'ann@example.com',
      region: '94117',
    });
  });

  it('refuses a missing email or zip code', () => {
    expect(waitlistRequest('', '94117')).toBeNull();
    expect(waitlistRequest('ann@example.com', '   ')).toBeNull();
  });

  it('uses the fixed toast texts', () => {
    expect(waitlistToasts.success).toEqual({
      title: 'Welcome to the waitlist!',
      description: "Thanks for joining! We'll reach out when the beta is live and ready.",
    });
    expect(waitlistToasts.missing).toEqual({
      title: 'Missing Information',
      description: 'Please provide both email and region.',
    });
    expect(waitlistToasts.failure.fallback).toBe('Failed to sign up. Please try again.');
  });
});
