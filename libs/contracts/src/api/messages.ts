import { z } from 'zod';
import { answer, endpoint } from '../http/endpoint';
import {
  TestDataQuery,
  idParams,
  searchParam,
  testDataFlag,
  uuidParam,
  wholeNumberParam,
} from '../http/params';
import type { IsoDateTime, MessageDirectionValue, MessageStatusValue, SentimentLabel } from './common';

/** One conversation as the admin screens list and detail it. */
export interface ConversationDto {
  id: string;
  userId: string;
  phoneNumber: string;
  userActive: boolean;
  messageCount: number;
  startTime: IsoDateTime;
  firstMessageAt: IsoDateTime | null;
  /** Null while the conversation is ongoing. */
  endTime: IsoDateTime | null;
  lastMessageAt: IsoDateTime | null;
  sentiment: SentimentLabel | null;
  topicsDiscussed: string[];
  summary: string | null;
  keyOutcomes: string[];
  nextSteps: string[];
  region: string | null;
  experienceLevel: string | null;
  modelUsed: string | null;
  /** Content of the latest message. */
  lastMessage: string | null;
  isTestUser: boolean;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  /**
   * false when total is not an exact count: a search with more matches than it counts per poll
   * (total is then the planner's estimate), so the console says "about N".
   */
  totalIsExact: boolean;
  /**
   * Where the next page starts (keyset: the last row's activity time and id), for `cursor`; null
   * on the last page.
   */
  nextCursor: string | null;
}

/** GET /api/admin/conversations (both the paginated page and the user panel's list). */
export interface ConversationListResponse {
  conversations: ConversationDto[];
  pagination: Pagination;
}

/** One message of GET /api/admin/conversations/{id}/messages (an array). */
export interface ConversationMessage {
  id: string;
  content: string;
  direction: MessageDirectionValue;
  createdAt: IsoDateTime;
  status: MessageStatusValue | null;
  errorMessage: string | null;
  /** Dollars: AI (the reply's model call; an inbound's image analysis). */
  cost: number;
  /** Dollars: sending it (recorded when Twilio accepted it); null when not sent or not recorded. */
  smsCost: number | null;
  /** SMS segments it was sent in (outbound); null when unknown. */
  segments: number | null;
  tokenUsage: number;
  modelUsed: string | null;
  isTestUser: boolean;
  imageUrl: string | null;
  /** What image analysis said about the picture, once done. */
  imageAnalysis?: string | null;
}

/** GET /api/admin/messages/stats */
export interface MessageStats {
  totalMessages: number;
  messagesToday: number;
  /** Percent change of today against yesterday; 0 shows 'No change from yesterday'. */
  changePercent: number;
  /** Percent of inbound messages in the last 24 hours that got a reply. */
  responseRate: number;
  failedMessages: number;
}

/** POST /api/admin/conversations/{id}/check-delivery */
export interface CheckDeliveryResponse {
  success: boolean;
  /** Outbound messages whose status was re-read from the provider. */
  checked: number;
  /** Messages whose stored status changed. */
  updated: number;
  message: string;
}

/** One row of GET /api/admin/messages (monitoring dashboard, an array). */
export interface MonitoringMessage {
  id: string;
  content: string;
  direction: MessageDirectionValue;
  status: MessageStatusValue | null;
  createdAt: IsoDateTime;
  isTestUser: boolean;
  user: {
    id: string;
    phoneNumber: string;
    zipCode: string | null;
    /**
     * The user's region as the Users screen shows it (learned from the conversation, or recorded
     * from their ZIP), else their ZIP's; null when none is known.
     */
    region: string | null;
  };
}

export const CONVERSATION_PAGE_SIZE = 20;
export const CONVERSATION_MAX_PAGE_SIZE = 100;
/** The user panel lists a user's conversations on one page unless it asks for another limit. */
export const USER_PANEL_PAGE_SIZE = 100;
export const CONVERSATION_SEARCH_MAX_LENGTH = 100;
/** Without a cursor, pages are counted off from the top only this far (an OFFSET); past it, `cursor`. */
export const CONVERSATION_OFFSET_MAX = 10_000;
/** A page cursor: the last row's last_message_at in microseconds since 1970, '_', its id. */
export const CONVERSATION_CURSOR = /^\d{1,17}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

const ConversationIdParams = idParams('Conversation id must be a UUID');

export const messagesApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/conversations',
    access: 'admin',
    tag: 'admin conversations',
    summary: "Conversations, newest activity first: one user's (userId) or all, paged and searchable",
    description:
      'A search matches conversations whose summary, region and topics hold every one of its words (any ' +
      "order, any case, inside other words too), or whose user's phone number matches the digits. " +
      'Browsing and search reach every conversation: pass pagination.nextCursor back as cursor for ' +
      'the next page (keyset; page is then only echoed as the page number shown). Without a cursor, ' +
      'page counts off from the top, up to the first 10,000 conversations. Browsing totals are exact; ' +
      "a search with many matches answers the planner's estimate as total, with " +
      'pagination.totalIsExact false. With userId, search does not apply and every conversation ' +
      'of that user is listed whatever showTestData says.',
    query: z.object({
      page: wholeNumberParam(1, 1, 1_000_000),
      /** Absent: 20, or 100 for one user's conversations. */
      limit: wholeNumberParam(undefined, 1, CONVERSATION_MAX_PAGE_SIZE),
      search: searchParam(CONVERSATION_SEARCH_MAX_LENGTH),
      userId: uuidParam().optional(),
      cursor: z
        .string({ error: 'must be text' })
        .regex(CONVERSATION_CURSOR, { error: 'must be a pagination.nextCursor this list answered' })
        .optional(),
      showTestData: testDataFlag(),
    }),
    answer: answer<ConversationListResponse>('A page of conversations with its pagination'),
  }),
  export: endpoint({
    method: 'GET',
    path: '/api/admin/conversations/export',
    access: 'admin',
    tag: 'admin conversations',
    summary: 'CSV of every conversation the list shows for this search and test-data choice',
    description:
      'Newest activity first, over all conversations (no window), streamed as it is read; phone ' +
      'numbers included. The export is logged with the admin who took it.',
    query: z.object({
      search: searchParam(CONVERSATION_SEARCH_MAX_LENGTH),
      showTestData: testDataFlag(),
    }),
    // text/csv on success only (set by the handler): errors stay JSON.
    answer: answer<void>('A CSV attachment (text/csv), one conversation a line'),
  }),
  exportUser: endpoint({
    method: 'GET',
    path: '/api/admin/users/:id/conversations/export',
    access: 'admin',
    tag: 'admin conversations',
    summary: "CSV of a user's conversations with their messages, oldest first",
    description:
      'One line per message with its conversation (a conversation without messages has one line), ' +
      'streamed as it is read; logged with the admin who took it. 404 when the user does not exist.',
    params: idParams('User id must be a UUID'),
    answer: answer<void>('A CSV attachment (text/csv), one message a line'),
  }),
  messages: endpoint({
    method: 'GET',
    path: '/api/admin/conversations/:id/messages',
    access: 'admin',
    tag: 'admin conversations',
    summary: "A conversation's messages (the latest 500), oldest first",
    params: ConversationIdParams,
    query: TestDataQuery,
    answer: answer<ConversationMessage[]>('Messages, oldest first'),
  }),
  checkDelivery: endpoint({
    method: 'POST',
    path: '/api/admin/conversations/:id/check-delivery',
    access: 'admin',
    tag: 'admin conversations',
    summary: "Re-read from Twilio the status of a conversation's messages that are not final yet",
    description:
      'Waits for the check (at most 15 s; 504 after that, 502 when Twilio cannot be reached) and ' +
      'answers how many messages were checked and how many changed.',
    params: ConversationIdParams,
    /** JSON with no fields; fields sent anyway are ignored. */
    body: z.object({}, { error: 'The body must be a JSON object' }).nullish(),
    answer: answer<CheckDeliveryResponse>('How many messages were checked and updated'),
  }),
  messageStats: endpoint({
    method: 'GET',
    path: '/api/admin/messages/stats',
    access: 'admin',
    tag: 'admin conversations',
    summary:
      'Message cards: total (all time), today with change from yesterday, response rate (24 h), failed',
    query: TestDataQuery,
    answer: answer<MessageStats>('The four message cards'),
  }),
} as const;
