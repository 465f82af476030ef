import type { Db } from '../db';
import { managerOf } from '../db';
import type { Conversation } from '../entities/conversation.entity';
import type { Message } from '../entities/message.entity';
import type { User } from '../entities/user.entity';
import type { SpendLedger } from '../ledger/spend-ledger';
import type { UnpaidCall } from '../ledger/statements';
import { type DueSurvey, markSurveyDelivered } from '../surveys/reply-surveys';
import type { Sentiment } from '../types';
import { type OutboundMessageInput, recordOutbound } from './message-writer';
import { type InboundMoods, lockReplyRecipient } from './reply-reads';

/** What the reply's plan is made from: the locked user and conversation, the due survey, the moods. */
export interface ReplyState {
  user: User;
  conversation: Conversation;
  /** The user's oldest due survey delivery, locked; null when none is due or none was asked for. */
  survey: DueSurvey | null;
  moods: InboundMoods;
}

/** The reply as planned: written as it is. */
export interface PlannedReply {
  /** The reply, its counters and what it changes on the user, the conversation and the inbound. */
  message: OutboundMessageInput;
  /** The llm_calls row of an answer no model call wrote (template or minimal tier); null otherwise. */
  unpaidCall: Omit<UnpaidCall, 'messageId' | 'isTestUser'> | null;
  /** The reply carries the due survey's link: its delivery is marked and counted. */
  carriesSurvey: boolean;
}

export interface ReplyRequest {
  inbound: Pick<Message, 'id' | 'userId' | 'conversationId'>;
  /** The inbound's sentiment, rolled into the moods as if stored. */
  sentiment: Sentiment;
  /** How many of the user's latest texts the moods read. */
  moodWindow: number;
  /** Whether a due survey link may ride on this reply (never on a reply to an invalid text). */
  withSurvey: boolean;
  /** The pure planning step, run on the locked state. */
  plan: (state: ReplyState) => PlannedReply;
}

export type ReplyRecordOutcome = 'replied' | 'already-replied' | 'opted-out' | 'missing';

/**
 * Writes a planned reply once, in one transaction under the user's row lock: reads the locked
 * user and conversation, the due survey (locked) and the moods, asks `plan` for the reply, then
 * writes the outbound message with its counters and its model call's link (recordOutbound, one
 * statement), the llm_calls row of a template or minimal answer (through the ledger, the one
 * writer of llm_calls) and the survey delivery. Idempotent on the reply's id.
 */
export async function recordReply(
  db: Db,
  ledger: SpendLedger,
  request: ReplyRequest,
): Promise<ReplyRecordOutcome> {
  const { inbound } = request;
  return managerOf(db).transaction(async (manager): Promise<ReplyRecordOutcome> => {
    const { user, conversation, survey, moods } = await lockReplyRecipient(manager, {
      inbound,
      sentiment: request.sentiment,
      window: request.moodWindow,
      withSurvey: request.withSurvey,
    });
    if (user === null) return 'missing';
    if (user.optedOut) return 'opted-out';
    if (conversation === null) return 'missing';
    const planned = request.plan({ user, conversation, survey, moods });

    const recorded = await recordOutbound(manager, planned.message);
    if (recorded === null) return 'already-replied';
    const replyId = recorded.id;
    if (planned.unpaidCall !== null)
      await ledger.recordUnpaid(
        { ...planned.unpaidCall, messageId: replyId, isTestUser: recorded.isTestUser },
        manager,
      );
    if (survey !== null && planned.carriesSurvey)
      await markSurveyDelivered(manager, survey.deliveryId, {
        conversationId: inbound.conversationId,
        messageId: replyId,
      });
    return 'replied';
  });
}
