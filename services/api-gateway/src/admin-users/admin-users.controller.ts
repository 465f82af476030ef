import { Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AdminUserListItem, UserDetail, UserOverviewStats } from '@sprout/contracts';
import { ZodValidationPipe } from '@sprout/platform';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { type JsonText, asJson } from '../common/json-text';
import { AdminUsersQueryService } from './admin-users.service';
import {
  TOTAL_COUNT_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
  UserIdParam,
  UserListQuery,
  UserStatsQuery,
} from './dto';

export const USER_NOT_FOUND = 'User not found.';

const SHOW_TEST_USERS = {
  name: 'showTestUsers',
  required: false,
  description: "'true': test users only; 'false' (default): real users only",
} as const;

@ApiTags('admin users')
@ApiCookieAuth('sprout_session')
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersQueryService) {}

  @Get('stats/overview')
  @ApiOperation({ summary: 'User stat cards: users, active (24 h), new (7 days), messages, engagement %' })
  @ApiQuery(SHOW_TEST_USERS)
  async overview(
    // Typed through z.output: the schema's own name would be emitted as the parameter's design type.
    @Query(new ZodValidationPipe(UserStatsQuery)) query: z.output<typeof UserStatsQuery>,
  ): Promise<UserOverviewStats> {
    return this.users.overview(query.showTestUsers);
  }

  @Get()
  @ApiOperation({
    summary: 'The most recently active users (default 200), searchable by phone digits',
    description:
      'Sorted by last message, newest first. X-Total-Count holds the number of users of the chosen ' +
      'kind, or with a search the matches counted up to 1000 (X-Total-Count-Capped: true beyond).',
  })
  @ApiQuery(SHOW_TEST_USERS)
  @ApiQuery({
    name: 'search',
    required: false,
    description: 'Phone digits: "+1503" prefix or "5550123" anywhere',
  })
  @ApiQuery({ name: 'limit', required: false, description: 'At most 500 (default 200)' })
  async list(
    @Query(new ZodValidationPipe(UserListQuery)) query: z.output<typeof UserListQuery>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonText<AdminUserListItem[]>> {
    const { json, total, totalIsCapped } = await this.users.list({
      testUsers: query.showTestUsers,
      search: query.search,
      limit: query.limit,
    });
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    void reply.header(TOTAL_COUNT_CAPPED_HEADER, String(totalIsCapped));
    return asJson(reply, json);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One user with profile and analytics (30 days of recent activity)' })
  @ApiParam({ name: 'id', description: 'User id (UUID)' })
  async detail(
    @Param('id', new ZodValidationPipe(UserIdParam)) id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JsonText<UserDetail>> {
    const user = await this.users.detail(id);
    if (user === null) throw new NotFoundException(USER_NOT_FOUND);
    return asJson(reply, user);
  }
}
