import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { HealthController, endpointOf } from '@sprout/platform';
import type { FastifyRequest } from 'fastify';
import { SessionService } from './session.service';

/** Controllers outside the endpoint table that answer anyone: the health probes. */
const PUBLIC_LIBRARY_CONTROLLERS: readonly unknown[] = [HealthController];

const AUTHENTICATION_REQUIRED = 'Authentication required';

/**
 * Applied to every route (APP_GUARD). An endpoint of the contract table answers without an admin
 * session only when its access is 'public'; a route outside the table only when it is the
 * platform's health controller.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const endpoint = endpointOf(context.getHandler());
    const isPublic =
      endpoint !== undefined
        ? endpoint.access === 'public'
        : PUBLIC_LIBRARY_CONTROLLERS.includes(context.getClass());
    if (isPublic) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = await this.sessions.resume(request);
    if (session === null) throw new UnauthorizedException(AUTHENTICATION_REQUIRED);
    return true;
  }
}
