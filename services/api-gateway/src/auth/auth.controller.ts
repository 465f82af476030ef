import { Controller, Req, Res, UnauthorizedException } from '@nestjs/common';
import { type EndpointInput, api } from '@sprout/contracts';
import { Endpoint, Input } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from '../common/request-info';
import { AdminUsersService } from './admin-users.service';
import { LoginThrottleService } from './login-throttle.service';
import { SessionService } from './session.service';

const INVALID_CREDENTIALS = 'Invalid credentials';

@Controller()
export class AuthController {
  constructor(
    private readonly adminUsers: AdminUsersService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
  ) {}

  @Endpoint(api.auth.login)
  async login(
    @Input() { body }: EndpointInput<typeof api.auth.login>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { username, password } = body;
    const ip = clientIp(request);
    // Counted before the password is checked: a failure is already counted as one.
    const attempt = await this.throttle.admit(username, ip);
    const admin = await this.adminUsers.verify(username, password);
    if (admin === null) throw new UnauthorizedException(INVALID_CREDENTIALS);
    await this.throttle.recordSuccess(attempt);
    await this.sessions.start(request, reply, admin);
    return { success: true, user: { id: admin.id, username: admin.username } } as const;
  }

  @Endpoint(api.auth.logout)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.end(request, reply);
    return { success: true };
  }

  @Endpoint(api.auth.status)
  async status(@Req() request: FastifyRequest) {
    const session = await this.sessions.resume(request);
    if (session === null) return { authenticated: false, user: null };
    return { authenticated: true, user: { id: session.adminUserId, username: session.username } };
  }
}
