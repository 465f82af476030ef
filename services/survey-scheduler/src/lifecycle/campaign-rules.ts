import type { CampaignStatus } from '@sprout/domain';

// The survey campaign rules, free of I/O so they can be read and tested on their own. The
// lifecycle applies them as set-based SQL (libs/domain surveys; a test checks that the SQL and
// these functions agree on the same campaigns and users).

export interface CampaignDates {
  status: CampaignStatus;
  startDate: Date;
  endDate: Date | null;
}

/**
 * The status a campaign should have at `now` (only an admin pauses and resumes):
 * - past the end date (strictly after it), scheduled, live and paused campaigns are completed;
 * - completed stays completed, paused stays paused until then;
 * - scheduled becomes live once the start date is reached;
 * - live stays live while it runs (a start date moved later does not un-start it).
 */
export const campaignStatusAt = (campaign: CampaignDates, now: Date): CampaignStatus => {
  if (campaign.status === 'completed') return 'completed';
  if (campaign.endDate !== null && now.getTime() > campaign.endDate.getTime()) return 'completed';
  if (campaign.status === 'scheduled')
    return now.getTime() >= campaign.startDate.getTime() ? 'live' : 'scheduled';
  return campaign.status;
};

export interface CampaignAudience {
  startDate: Date;
  targetExistingUsers: boolean;
  targetNewUsers: boolean;
}

export interface AudienceCandidate {
  createdAt: Date;
  isTestUser: boolean;
  optedOut: boolean;
}

/**
 * Whether a live campaign targets the user (a pending delivery is created for them): real, opted-in
 * users; existing ones (created before the campaign went live) when it targets existing users, new
 * ones (created since) when it targets new users. When the link goes out is the ai-responder's
 * rule: an existing user's next reply, a new user's second conversation.
 */
export const isTargeted = (campaign: CampaignAudience, user: AudienceCandidate): boolean => {
  if (user.isTestUser || user.optedOut) return false;
  const isNew = user.createdAt.getTime() >= campaign.startDate.getTime();
  return isNew ? campaign.targetNewUsers : campaign.targetExistingUsers;
};

/**
 * The targeting walk visits users in (created_at, id) order and never goes back, so it only walks
 * past users this old: one created at T by a transaction that commits a little later is still found.
 */
export const TARGETING_SETTLE_MS = 10_000;
