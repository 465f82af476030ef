import { Controller, NotFoundException, Res } from '@nestjs/common';
import { CONVERSATION_PAGE_SIZE, type EndpointInput, USER_PANEL_PAGE_SIZE, api } from '@sprout/contracts';
import { Endpoint, Input, asJson } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { AdminConversationsQueryService } from './admin-conversations.service';
import { MessageStatsService } from './message-stats.service';

export const CONVERSATION_NOT_FOUND = 'Conversation not found.';
export const USER_NOT_FOUND = 'User not found.';

@Controller()
export class AdminConversationsController {
  constructor(
    private readonly conversations: AdminConversationsQueryService,
    private readonly messageStats: MessageStatsService,
  ) {}

  @Endpoint(api.conversations.list)
  async list(
    @Input() { query }: EndpointInput<typeof api.conversations.list>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
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

  @Endpoint(api.conversations.messages)
  async messages(
    @Input() { params, query }: EndpointInput<typeof api.conversations.messages>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const messages = await this.conversations.messages(params.id, query.showTestData);
    if (messages === null) throw new NotFoundException(CONVERSATION_NOT_FOUND);
    return asJson(reply, messages);
  }

  @Endpoint(api.conversations.messageStats)
  async stats(@Input() { query }: EndpointInput<typeof api.conversations.messageStats>) {
    return this.messageStats.stats(query.showTestData);
  }
}
