import fastifyCookie from '@fastify/cookie';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import { CONFIG } from '@sprout/platform';
import type { FastifyInstance } from 'fastify';
import type { ApiGatewayConfig } from '../config';
import { AdminUsersService } from './admin-users.service';
import { AdminGuard } from './admin.guard';
import { AuthController } from './auth.controller';
import { refuseCrossSiteRequests } from './cross-site-requests';
import { LoginThrottleService } from './login-throttle.service';
import { SessionService } from './session.service';

/** Admin accounts, sessions, login throttling, CSRF refusal and the global AdminGuard. */
@Module({
  controllers: [AuthController],
  providers: [
    AdminUsersService,
    SessionService,
    LoginThrottleService,
    { provide: APP_GUARD, useClass: AdminGuard },
  ],
  exports: [SessionService],
})
export class AuthModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(fastifyCookie, { secret: this.config.sessionSecret });
    refuseCrossSiteRequests(fastify);
  }
}
