import { Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ConversationMessage, MessageStats } from '@sprout/contracts';
import { ZodValidationPipe } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { type JsonText, asJson } from '../common/json-text';
import { AdminConversationsQueryService } from './admin-conversations.service';
import {
  type AdminConversationListResponse,
  CONVERSATION_PAGE_SIZE,
  ConversationIdParam,
  ConversationListQuery,
  TestDataQuery,
  USER_PANEL_PAGE_SIZE,
} from './dto';
import { MessageStatsService } from './message-stats.service';

export const CONVERSATION_NOT_FOUND = 'Conversation not found.';
export const USER_NOT_FOUND = 'User not found.';

const SHOW_TEST_DATA = {
  name: 'showTestData',
  required: false,
  description: "'true': test users' data only; 'false' (default): real users' data only",
} as const;

@ApiTags('admin conversations')
@ApiCookieAuth('sprout_session')
@Controller('api/admin/conversations')
export class AdminConversationsController {
  constructor(private readonly conversations: AdminConversationsQueryService) {}

  @Get()
  @ApiOperation({
    summary: "Conversations, newest activity first: one user's (userId) or all, paged and searchable",
    description:
      'A search matches conversations whose summary, region and topics hold every one of its words (any order, ' +
      'any case, inside other words too), or whose ' +
      "user's phone number matches the digits. Browsing pages through the 10,000 most recent " +
      'conversations, a search through its 1000 most recent matches. A search with many matches ' +
      "answers the planner's estimate (or 1000) as total, with pagination.totalIsExact false. " +
      'With userId, search does not apply.',
  })
  @ApiQuery(SHOW_TEST_DATA)
  @ApiQuery({ name: 'userId', required: false, description: "Only this user's conversations (user panel)" })
  @ApiQuery({ name: 'page', required: false, description: 'From 1 (default 1)' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100 (default 20; 100 with userId)' })
  @ApiQuery({
    name: 'search',
    required: false,
    description:
      'Words (all of them, any order) in summary, region or topics, or phone digits ("+1503" prefix, "5550123" anywhere)',
  })
  async list(
    // Typed through z.output: the schema's own name would be emitted as the parameter's design type.
    @Query(new ZodValidationPipe(ConversationListQuery)) query: z.output<typeof ConversationListQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonText<AdminConversationListResponse>> {
    const list = await this.conversations.list({
      testData: query.showTestData,
      page: query.page,
      limit: query.limit ?? (query.userId === undefined ? CONVERSATION_PAGE_SIZE : USER_PANEL_PAGE_SIZE),
      search: query.search,
      userId: query.userId,
    });
    if (list === null) throw new NotFoundException(USER_NOT_FOUND);
    return asJson(reply, list);
  }

  @Get(':id/messages')
  @ApiOperation({ summary: "A conversation's messages (the latest 500), oldest first" })
  @ApiParam({ name: 'id', description: 'Conversation id (UUID)' })
  @ApiQuery(SHOW_TEST_DATA)
  async messages(
    @Param('id', new ZodValidationPipe(ConversationIdParam)) id: string,
    @Query(new ZodValidationPipe(TestDataQuery)) query: z.output<typeof TestDataQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonText<ConversationMessage[]>> {
    const messages = await this.conversations.messages(id, query.showTestData);
    if (messages === null) throw new NotFoundException(CONVERSATION_NOT_FOUND);
    return asJson(reply, messages);
  }
}

@ApiTags('admin conversations')
@ApiCookieAuth('sprout_session')
@Controller('api/admin/messages')
export class MessageStatsController {
  constructor(private readonly messageStats: MessageStatsService) {}

  @Get('stats')
  @ApiOperation({
    summary:
      'Message cards: total (all time), today with change from yesterday, response rate (24 h), failed',
  })
  @ApiQuery(SHOW_TEST_DATA)
  async stats(
    @Query(new ZodValidationPipe(TestDataQuery)) query: z.output<typeof TestDataQuery>,
  ): Promise<MessageStats> {
    return this.messageStats.stats(query.showTestData);
  }
}
