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

  it('uses the spec texts', () => {
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
