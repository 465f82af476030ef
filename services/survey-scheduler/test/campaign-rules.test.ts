import type { CampaignStatus } from '@sprout/domain';
import { type AudienceCandidate, campaignStatusAt, isTargeted } from '../src/lifecycle/campaign-rules';

const at = (iso: string): Date => new Date(iso);

describe('campaignStatusAt', () => {
  const start = at('2025-05-01T00:00:00Z');
  const end = at('2025-05-31T00:00:00Z');
  /** The status at `now` of a campaign in `status` from `startDate` (the 1st of May) to `endDate`. */
  const statusAt = (status: CampaignStatus, endDate: Date | null, now: Date, startDate = start) =>
    campaignStatusAt({ status, startDate, endDate }, now);

  it('starts a scheduled campaign at its start date, not before', () => {
    expect(statusAt('scheduled', end, at('2025-04-30T23:59:59Z'))).toBe('scheduled');
    expect(statusAt('scheduled', end, start)).toBe('live');
    expect(statusAt('scheduled', null, at('2030-01-01T00:00:00Z'))).toBe('live');
  });

  it('completes a live campaign only after its end date', () => {
    expect(statusAt('live', end, end)).toBe('live');
    expect(statusAt('live', end, at('2025-05-31T00:00:01Z'))).toBe('completed');
    expect(statusAt('live', null, at('2030-01-01T00:00:00Z'))).toBe('live');
  });

  it('completes a scheduled campaign whose end passed before it started', () => {
    expect(statusAt('scheduled', end, at('2025-06-02T00:00:00Z'))).toBe('completed');
  });

  it('keeps a live campaign live when its start date moves later', () => {
    expect(statusAt('live', null, start, at('2025-06-01T00:00:00Z'))).toBe('live');
  });

  it('keeps a paused campaign paused until its end date, then completes it', () => {
    expect(statusAt('paused', end, at('2025-05-10T00:00:00Z'))).toBe('paused');
    expect(statusAt('paused', end, end)).toBe('paused');
    expect(statusAt('paused', end, at('2025-07-01T00:00:00Z'))).toBe('completed');
    expect(statusAt('paused', null, at('2030-01-01T00:00:00Z'))).toBe('paused');
  });

  it('never moves a completed campaign', () => {
    expect(statusAt('completed', end, at('2025-05-10T00:00:00Z'))).toBe('completed');
    expect(statusAt('completed', null, at('2025-04-10T00:00:00Z'))).toBe('completed');
  });
});

describe('audience targeting', () => {
  const start = at('2025-05-01T00:00:00Z');
  const user = (overrides: Partial<AudienceCandidate>): AudienceCandidate => ({
    createdAt: at('2025-04-01T00:00:00Z'),
    isTestUser: false,
    optedOut: false,
    ...overrides,
  });
  const both = { startDate: start, targetExistingUsers: true, targetNewUsers: true };

  it('targets existing users (created before the start)', () => {
    expect(isTargeted(both, user({}))).toBe(true);
    expect(isTargeted(both, user({ createdAt: at('2025-04-30T23:59:59.999Z') }))).toBe(true);
  });

  it('targets new users (created at or after the start) from when they join', () => {
    expect(isTargeted(both, user({ createdAt: start }))).toBe(true);
    expect(isTargeted(both, user({ createdAt: at('2025-05-02T00:00:00Z') }))).toBe(true);
  });

  it('never targets test users or opted-out users', () => {
    expect(isTargeted(both, user({ isTestUser: true }))).toBe(false);
    expect(isTargeted(both, user({ optedOut: true }))).toBe(false);
    expect(isTargeted(both, user({ createdAt: at('2025-05-02T00:00:00Z'), optedOut: true }))).toBe(false);
  });

  it('follows the audience switches', () => {
    const existingOnly = { startDate: start, targetExistingUsers: true, targetNewUsers: false };
    const newOnly = { startDate: start, targetExistingUsers: false, targetNewUsers: true };
    const fresh = user({ createdAt: at('2025-05-03T00:00:00Z') });
    expect(isTargeted(existingOnly, user({}))).toBe(true);
    expect(isTargeted(existingOnly, fresh)).toBe(false);
    expect(isTargeted(newOnly, user({}))).toBe(false);
    expect(isTargeted(newOnly, fresh)).toBe(true);
    const none = { startDate: start, targetExistingUsers: false, targetNewUsers: false };
    expect(isTargeted(none, user({}))).toBe(false);
    expect(isTargeted(none, fresh)).toBe(false);
  });
});
