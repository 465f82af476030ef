import { Injectable } from '@nestjs/common';
import type { ConversationListResponse, ConversationMessage, Pagination } from '@sprout/contracts';
import {
  type ConversationListOptions,
  type JsonText,
  SEARCH_EXACT_COUNT_BELOW,
  conversationListPage,
  conversationMessagesJson,
} from '@sprout/domain';
import { DataSource } from 'typeorm';

/**
 * Reads of the Messages and Conversations screen and the user panel (their statements:
 * conversationListPage in libs/domain); the pagination of a page is worked out here.
 */
@Injectable()
export class MessagesQueryService {
  constructor(private readonly dataSource: DataSource) {}

  /** The page of conversations, newest activity first; null when `userId` names no user. */
  async list(options: ConversationListOptions): Promise<JsonText<ConversationListResponse> | null> {
    const { page, limit, cursor } = options;
    const offset = cursor === undefined ? (page - 1) * limit : 0;
    const { row, estimate } = await conversationListPage(this.dataSource, options);
    if (row === undefined || !row.user_exists) return null;

    const fetched = Number(row.fetched);
    const pageFull = fetched > offset + limit;
    // A short-word search that stopped at the end of its window goes on from there.
    const scanEnd = pageFull ? null : (row.scan_end ?? null);
    const hasNext = pageFull || scanEnd !== null;
    const shownUpTo = offset + Math.max(0, Math.min(limit, fetched - offset));
    let total = Number(row.total_count);
    let totalIsExact = true;
    if (estimate !== null) {
      if (cursor === undefined && !hasNext) {
        // Counted off from the top to the last match: exact.
        total = shownUpTo;
      } else if (total < 0 || total > SEARCH_EXACT_COUNT_BELOW) {
        // Not counted, or more matches than the cap: the estimate, at least what was seen.
        totalIsExact = false;
        total = Math.max(estimate, shownUpTo + (hasNext ? 1 : 0));
      }
    }
    const pagination: Pagination = {
      page,
      limit,
      total,
      totalPages: Math.max(1, Math.ceil(total / limit)),
      totalIsExact,
      nextCursor: pageFull ? row.next_cursor : scanEnd,
    };
    return `{"conversations":${row.conversations},"pagination":${JSON.stringify(pagination)}}`;
  }

  /** The conversation's latest messages of the chosen kind, oldest first; null when it does not exist. */
  async messages(conversationId: string, testData: boolean): Promise<JsonText<ConversationMessage[]> | null> {
    return conversationMessagesJson<ConversationMessage[]>(this.dataSource, conversationId, testData);
  }
}
