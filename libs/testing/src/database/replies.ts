import { Message, type OutboundRecord, recordOutbound, replyIdFor } from '@sprout/domain';
import type { DataSource } from 'typeorm';

/**
 * Records the pipeline's answer to an inbound text as ai-responder writes it: the id derived from
 * the inbound's, so a second answer to the same text is refused (null) as the pipeline's would be.
 */
export const recordReplyTo = async (
  dataSource: DataSource,
  inboundId: string,
): Promise<OutboundRecord | null> => {
  const inbound = await dataSource.getRepository(Message).findOneByOrFail({ id: inboundId });
  return recordOutbound(dataSource, {
    id: replyIdFor(inboundId),
    userId: inbound.userId,
    conversationId: inbound.conversationId,
    inReplyTo: inboundId,
    content: 'Plant garlic 2 inches deep.',
    kind: 'reply',
    encoding: 'GSM-7',
    segments: 1,
  });
};
