import { Controller, NotFoundException, Res } from '@nestjs/common';
import {
  type EndpointInput,
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
    const { json, total, totalIsCapped } = await this.users.list({
      testUsers: query.showTestUsers,
      search: query.search,
      limit: query.limit,
    });
    void reply.header(USER_TOTAL_COUNT_HEADER, String(total));
    void reply.header(USER_TOTAL_COUNT_CAPPED_HEADER, String(totalIsCapped));
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
}
