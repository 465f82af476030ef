import { z } from 'zod';
import {
  queryBoolean,
  queryInt,
  type IsoDateTime,
  type MessageDirectionValue,
  type MessageStatusValue,
  type SentimentLabel,
} from './common';

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
}

/** GET /api/admin/conversations (both the paginated page and the user panel's list). */
export interface ConversationListResponse {
  conversations: ConversationDto[];
  pagination: Pagination;
}

export const ConversationListQuery = z.object({
  page: queryInt(1, 1, 100_000),
  limit: queryInt(20, 1, 100),
  search: z.string().trim().max(100).optional(),
  userId: z.uuid().optional(),
  showTestData: queryBoolean,
});
export type ConversationListQuery = z.output<typeof ConversationListQuery>;

/** One message of GET /api/admin/conversations/{id}/messages (an array). */
export interface ConversationMessage {
  id: string;
  content: string;
  direction: MessageDirectionValue;
  createdAt: IsoDateTime;
  status: MessageStatusValue | null;
  errorMessage: string | null;
  /** Dollars. */
  cost: number;
  tokenUsage: number;
  modelUsed: string | null;
  isTestUser: boolean;
  imageUrl: string | null;
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
  /** Outbound messages whose status is being re-checked. */
  checked: number;
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
  user: { id: string; phoneNumber: string; zipCode: string | null };
}
