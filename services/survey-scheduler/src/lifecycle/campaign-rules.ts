import type { CampaignStatus } from '@sprout/domain';

// The survey campaign rules, free of I/O so they can be read and tested on their own. The
// lifecycle service applies them (the targeting rule is also expressed as SQL there; a test checks
// that the SQL and `isTargeted` agree on the same users).

export interface CampaignDates {
  status: CampaignStatus;
  startDate: Date;
  endDate: Date | null;
}

/**
 * The status a campaign should have at `now`:
 * - paused stays paused (only an admin resumes it), completed stays completed;
 * - scheduled or live past the end date (strictly after it) becomes completed;
 * - scheduled becomes live once the start date is reached;
 * - live stays live while it runs (a start date moved later does not un-start it).
 */
export const campaignStatusAt = (campaign: CampaignDates, now: Date): CampaignStatus => {
  switch (campaign.status) {
    case 'paused':
    case 'completed':
      return campaign.status;
    case 'scheduled':
    case 'live':
      if (campaign.endDate !== null && now.getTime() > campaign.endDate.getTime()) return 'completed';
      if (campaign.status === 'live' || now.getTime() >= campaign.startDate.getTime()) return 'live';
      return 'scheduled';
  }
};

export interface CampaignAudience {
  startDate: Date;
  targetExistingUsers: boolean;
  targetNewUsers: boolean;
}

/** New users are reached in their second conversation, so they qualify after finishing one. */
export const NEW_USER_FINISHED_CONVERSATIONS = 1;

export interface AudienceRule {
  /** Existing users: created strictly before this instant (the campaign start); null when not targeted. */
  existingUsersCreatedBefore: Date | null;
  /** New users: created at or after this instant (the campaign start); null when not targeted. */
  newUsersCreatedFrom: Date | null;
  /** Finished conversations a new user needs before being targeted. */
  newUserFinishedConversations: number;
}

/** Who a live campaign targets. Test users and opted-out users never are (see isTargeted). */
export const audienceRuleOf = (campaign: CampaignAudience): AudienceRule => ({
  existingUsersCreatedBefore: campaign.targetExistingUsers ? campaign.startDate : null,
  newUsersCreatedFrom: campaign.targetNewUsers ? campaign.startDate : null,
  newUserFinishedConversations: NEW_USER_FINISHED_CONVERSATIONS,
});

export interface ConversationTimes {
  endedAt: Date | null;
  lastMessageAt: Date;
}

/**
 * A conversation is finished when it was closed (its summary ran) or when it has been idle for
 * the idle timeout: the next message would open a new conversation either way.
 */
export const isConversationFinished = (
  conversation: ConversationTimes,
  now: Date,
  idleTimeoutMs: number,
): boolean =>
  conversation.endedAt !== null || now.getTime() - conversation.lastMessageAt.getTime() >= idleTimeoutMs;

export interface AudienceCandidate {
  createdAt: Date;
  isTestUser: boolean;
  optedOut: boolean;
  finishedConversations: number;
}

export const isTargeted = (rule: AudienceRule, user: AudienceCandidate): boolean => {
  if (user.isTestUser || user.optedOut) return false;
  const created = user.createdAt.getTime();
  if (rule.existingUsersCreatedBefore !== null && created < rule.existingUsersCreatedBefore.getTime())
    return true;
  return (
    rule.newUsersCreatedFrom !== null &&
    created >= rule.newUsersCreatedFrom.getTime() &&
    user.finishedConversations >= rule.newUserFinishedConversations
  );
};
