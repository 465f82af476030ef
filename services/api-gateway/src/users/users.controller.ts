import { Controller, NotFoundException, Req, Res } from '@nestjs/common';
import {
  type EndpointInput,
  USER_DEFAULT_SORT,
  USER_NEXT_CURSOR_HEADER,
  USER_TOTAL_COUNT_CAPPED_HEADER,
  USER_TOTAL_COUNT_HEADER,
  type UserSortKey,
  type UserSortOrder,
  api,
} from '@sprout/contracts';
import { Endpoint, Input, asJson } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SessionService } from '../auth/session.service';
import { CsvExporter } from '../common/csv-export';
import { UsersQueryService } from './users.service';
import { UsersExportService } from './users-export.service';

const USER_NOT_FOUND = 'User not found.';

/** The table's order: the default sort newest first, any chosen sort ascending unless told. */
const listOrder = (query: {
  sort?: UserSortKey | undefined;
  order?: UserSortOrder | undefined;
}): { sort: UserSortKey; order: UserSortOrder } => ({
  sort: query.sort ?? USER_DEFAULT_SORT.sort,
  order: query.order ?? (query.sort === undefined ? USER_DEFAULT_SORT.order : 'asc'),
});

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersQueryService,
    private readonly exports: UsersExportService,
    private readonly csv: CsvExporter,
    private readonly sessions: SessionService,
  ) {}

  @Endpoint(api.users.stats)
  async overview(@Input() { query }: EndpointInput<typeof api.users.stats>) {
    return this.users.overview(query.showTestUsers);
  }

  @Endpoint(api.users.list)
  async list(
    @Input() { query }: EndpointInput<typeof api.users.list>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { json, total, totalIsCapped, nextCursor } = await this.users.list({
      testUsers: query.showTestUsers,
      search: query.search,
      ...listOrder(query),
      cursor: query.cursor,
      limit: query.limit,
    });
    void reply.header(USER_TOTAL_COUNT_HEADER, String(total));
    void reply.header(USER_TOTAL_COUNT_CAPPED_HEADER, String(totalIsCapped));
    if (nextCursor !== null) void reply.header(USER_NEXT_CURSOR_HEADER, nextCursor);
    return asJson(reply, json);
  }

  @Endpoint(api.users.export)
  async export(
    @Input() { query }: EndpointInput<typeof api.users.export>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const rows = this.exports.users({
      admin: this.sessions.current(request)?.username ?? 'unknown',
      testUsers: query.showTestUsers,
      search: query.search,
      ...listOrder(query),
    });
    await this.csv.send(reply, rows, `users-${query.showTestUsers ? 'test' : 'real'}`);
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
