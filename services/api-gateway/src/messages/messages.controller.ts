import { BadRequestException, Controller, NotFoundException, Req, Res } from '@nestjs/common';
import {
  CONVERSATION_OFFSET_MAX,
  CONVERSATION_PAGE_SIZE,
  type EndpointInput,
  USER_PANEL_PAGE_SIZE,
  api,
} from '@sprout/contracts';
import { parseCursor } from '@sprout/domain';
import { Endpoint, Input, asJson } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SessionService } from '../auth/session.service';
import { CsvExporter } from '../common/csv-export';
import { MessagesQueryService } from './messages.service';
import { ConversationsExportService } from './conversations-export.service';
import { MessageStatsService } from './message-stats.service';

const CONVERSATION_NOT_FOUND = 'Conversation not found.';
const USER_NOT_FOUND = 'User not found.';

@Controller()
export class MessagesController {
  constructor(
    private readonly conversations: MessagesQueryService,
    private readonly messageStats: MessageStatsService,
    private readonly exports: ConversationsExportService,
    private readonly sessions: SessionService,
    private readonly csv: CsvExporter,
  ) {}

  @Endpoint(api.messages.export)
  async export(
    @Input() { query }: EndpointInput<typeof api.messages.export>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const rows = this.exports.conversations({
      admin: this.admin(request),
      testData: query.showTestData,
      search: query.search,
    });
    await this.csv.send(reply, rows, `conversations-${query.showTestData ? 'test' : 'real'}`);
  }

  @Endpoint(api.messages.exportUser)
  async exportUser(
    @Input() { params }: EndpointInput<typeof api.messages.exportUser>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const rows = await this.exports.userConversations(this.admin(request), params.id);
    if (rows === null) throw new NotFoundException(USER_NOT_FOUND);
    await this.csv.send(reply, rows, `user-${params.id}-conversations`);
  }

  /** Who takes the export, for the log (the guard resumed the session). */
  private admin(request: FastifyRequest): string {
    return this.sessions.current(request)?.username ?? 'unknown';
  }

  @Endpoint(api.messages.list)
  async list(
    @Input() { query }: EndpointInput<typeof api.messages.list>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const limit = query.limit ?? (query.userId === undefined ? CONVERSATION_PAGE_SIZE : USER_PANEL_PAGE_SIZE);
    // Counting off pages from the top costs an OFFSET; past the first pages, the cursor does it.
    if (query.cursor === undefined && (query.page - 1) * limit >= CONVERSATION_OFFSET_MAX)
      throw new BadRequestException(
        `page: without a cursor, pages reach the first ${CONVERSATION_OFFSET_MAX} conversations; ` +
          'page on with cursor (pagination.nextCursor)',
      );
    const list = await this.conversations.list({
      testData: query.showTestData,
      page: query.page,
      limit,
      search: query.search,
      userId: query.userId,
      cursor: query.cursor === undefined ? undefined : parseCursor(query.cursor),
    });
    if (list === null) throw new NotFoundException(USER_NOT_FOUND);
    return asJson(reply, list);
  }

  @Endpoint(api.messages.messages)
  async messages(
    @Input() { params, query }: EndpointInput<typeof api.messages.messages>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const messages = await this.conversations.messages(params.id, query.showTestData);
    if (messages === null) throw new NotFoundException(CONVERSATION_NOT_FOUND);
    return asJson(reply, messages);
  }

  @Endpoint(api.messages.messageStats)
  async stats(@Input() { query }: EndpointInput<typeof api.messages.messageStats>) {
    return this.messageStats.stats(query.showTestData);
  }
}
