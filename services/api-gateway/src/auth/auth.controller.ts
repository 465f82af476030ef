import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiBody, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminLoginRequest,
  type ActionResponse,
  type AdminLoginResponse,
  type AuthStatusResponse,
} from '@sprout/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from '../common/request-info';
import { openApiSchemaOf } from '../docs/openapi';
import { AdminUsersService } from './admin-users.service';
import { LoginThrottleService } from './login-throttle.service';
import { Public } from './public.decorator';
import { SessionService } from './session.service';

export const MISSING_CREDENTIALS = 'Please provide both username and password.';
export const INVALID_CREDENTIALS = 'Invalid credentials';

const isBlank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

@ApiTags('admin auth')
@Controller('api/admin')
export class AuthController {
  constructor(
    private readonly adminUsers: AdminUsersService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in as an admin; sets the sprout_session cookie' })
  @ApiBody({ schema: openApiSchemaOf(AdminLoginRequest) })
  async login(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminLoginResponse> {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (isBlank(fields.username) || isBlank(fields.password))
      throw new BadRequestException(MISSING_CREDENTIALS);
    const parsed = AdminLoginRequest.safeParse(fields);
    if (!parsed.success)
      throw new BadRequestException(parsed.error.issues[0]?.message ?? MISSING_CREDENTIALS);
    const { username, password } = parsed.data;

    const ip = clientIp(request);
    await this.throttle.assertAllowed(username, ip);
    const admin = await this.adminUsers.verify(username, password);
    if (admin === null) {
      await this.throttle.recordFailure(username, ip);
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.throttle.recordSuccess(username);
    await this.sessions.start(request, reply, admin);
    return { success: true, user: { id: admin.id, username: admin.username } };
  }

  @Post('logout')
  @ApiCookieAuth('sprout_session')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the admin session' })
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ActionResponse> {
    await this.sessions.end(request, reply);
    return { success: true };
  }

  @Public()
  @Get('auth-status')
  @ApiOperation({ summary: 'Whether the request carries a live admin session' })
  @ApiOkResponse({ description: '{ authenticated, user }' })
  async authStatus(@Req() request: FastifyRequest): Promise<AuthStatusResponse> {
    const session = await this.sessions.resume(request);
    if (session === null) return { authenticated: false, user: null };
    return { authenticated: true, user: { id: session.adminUserId, username: session.username } };
  }
}
