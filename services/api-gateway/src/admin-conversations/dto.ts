// Request schemas of the Messages and Conversations screen and the user panel's conversation
// list. Answers use @sprout/contracts (ConversationDto, ConversationMessage, MessageStats); the
// list's pagination adds one field, below.
import type { ConversationListResponse, Pagination } from '@sprout/contracts';
import { z } from 'zod';
import { searchParam, testDataFlag, uuidParam, wholeNumberParam } from '../admin-users/dto';

export const CONVERSATION_PAGE_SIZE = 20;
export const CONVERSATION_MAX_PAGE_SIZE = 100;
/** The user panel lists a user's conversations on one page unless it asks for another limit. */
export const USER_PANEL_PAGE_SIZE = 100;
export const CONVERSATION_SEARCH_MAX_LENGTH = 100;

export const ConversationListQuery = z.object({
  page: wholeNumberParam(1, 1, 1_000_000),
  /** Absent: 20, or 100 for one user's conversations. */
  limit: wholeNumberParam(undefined, 1, CONVERSATION_MAX_PAGE_SIZE),
  search: searchParam(CONVERSATION_SEARCH_MAX_LENGTH),
  userId: uuidParam().optional(),
  showTestData: testDataFlag(),
});

export const ConversationIdParam = uuidParam('Conversation id must be a UUID');

export const TestDataQuery = z.object({ showTestData: testDataFlag() });

export interface AdminConversationPagination extends Pagination {
  /**
   * false when total is not an exact count: a search with more matches than it counts (total is
   * then the planner's estimate, or SEARCH_WINDOW), so the console can show "about N" or "N+".
   */
  totalIsExact: boolean;
}

/** GET /api/admin/conversations */
export interface AdminConversationListResponse extends ConversationListResponse {
  pagination: AdminConversationPagination;
}
