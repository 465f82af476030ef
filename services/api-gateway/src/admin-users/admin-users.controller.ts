import { Controller, NotFoundException, Res } from '@nestjs/common';
import {
  type EndpointInput,
  USER_DEFAULT_SORT,
  USER_NEXT_CURSOR_HEADER,
  USER_TOTAL_COUNT_CAPPED_HEADER,
  USER_TOTAL_COUNT_HEADER,
  api,
} from '@sprout/contracts';
import { Endpoint, Input, asJson } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import { AdminUsersQueryService } from './admin-users.service';

export const USER_NOT_FOUND = 'User not found.';

@Controller()
export class AdminUsersController {
  constructor(private readonly users: AdminUsersQueryService) {}

  @Endpoint(api.users.stats)
  async overview(@Input() { query }: EndpointInput<typeof api.users.stats>) {
    return this.users.overview(query.showTestUsers);
  }

  @Endpoint(api.users.list)
  async list(
    @Input() { query }: EndpointInput<typeof api.users.list>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const sort = query.sort ?? USER_DEFAULT_SORT.sort;
    const { json, total, totalIsCapped, nextCursor } = await this.users.list({
      testUsers: query.showTestUsers,
      search: query.search,
      sort,
      order: query.order ?? (query.sort === undefined ? USER_DEFAULT_SORT.order : 'asc'),
      cursor: query.cursor,
      limit: query.limit,
    });
    void reply.header(USER_TOTAL_COUNT_HEADER, String(total));
    void reply.header(USER_TOTAL_COUNT_CAPPED_HEADER, String(totalIsCapped));
    if (nextCursor !== null) void reply.header(USER_NEXT_CURSOR_HEADER, nextCursor);
    return asJson(reply, json);
  }

  @Endpoint(api.users.detail)
  async detail(
    @Input() { params }: EndpointInput<typeof api.users.detail>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const user = await this.users.detail(params.id);
    if (user === null) throw new NotFoundException(USER_NOT_FOUND);
    return asJson(reply, user);
  }

  @Endpoint(api.users.senderLimits)
  async senderLimits() {
    return this.users.senderLimits();
  }
}
