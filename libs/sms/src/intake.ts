import {
  type Db,
  type InboundMessageInput,
  type InboundRecord,
  consentToRecord,
  recordInbound,
} from '@sprout/domain';
import { type ComplianceAnswer, answerComplianceKeyword, tipsConfirmationReply } from './keywords';

/** A text received (the SMS webhook, the console's simulator), before its keyword is read. */
export type ReceivedText = Omit<InboundMessageInput, 'consent' | 'awaitingReply'> & {
  /** Where HELP's answer sends people. */
  contactEmail: string;
  /** The monthly cap of garden tips, named in TIPS' confirmation. */
  tipsPerMonth: number;
};

export interface ReceivedTextRecord {
  record: InboundRecord;
  /** The compliance keyword the text was read as (null: a text for the reply pipeline). */
  keyword: ComplianceAnswer | null;
  /**
   * The job it leads to: its reply (sms.inbound) or its keyword's confirmation (sms.outbound);
   * null for an opt-out from a sender opted out already (one confirmation per opt-out).
   */
  next: { queue: 'sms.inbound' | 'sms.outbound'; messageId: string } | null;
}

/**
 * The one intake of a text this deployment owes an answer, for an SMS and the simulator alike:
 * reads its compliance keyword once (STOP, START, HELP, an opt-out by intent, or a maybe-opt-out,
 * which a sender opted out already is not asked about), records it with the message writer
 * (keyword applied and confirmation stored in the same statement, an awaiting_replies row for
 * what is owed) and says which job comes next. Null when `from.userId` names no (test) user.
 */
export async function receiveText(db: Db, text: ReceivedText): Promise<ReceivedTextRecord | null> {
  const { contactEmail, tipsPerMonth, ...input } = text;
  const keyword = await consentToRecord(
    db,
    input.from,
    answerComplianceKeyword(input.content, contactEmail),
    {
      confirmation: (zip) => tipsConfirmationReply(zip, tipsPerMonth),
    },
  );
  const record = await recordInbound(db, { ...input, consent: keyword, awaitingReply: true });
  if (record === null) return null;
  const next =
    record.consent === null
      ? { queue: 'sms.inbound' as const, messageId: record.messageId }
      : record.consent.replyMessageId === null
        ? null
        : { queue: 'sms.outbound' as const, messageId: record.consent.replyMessageId };
  return { record, keyword: record.consent === null ? null : keyword, next };
}
