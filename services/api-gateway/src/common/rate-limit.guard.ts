import {
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CONFIG } from '@sprout/platform';
import type { FastifyRequest } from 'fastify';
import type { ApiGatewayConfig } from '../config';
import { RedisKeys, WindowCounter } from './redis-keys';
import { clientIp } from './request-info';

const RATE_LIMIT = 'sprout:rate-limit';

export interface RateLimitRule {
  /** Names the counter (`<prefix>:rate:<name>:<ip>`). */
  name: string;
  windowSeconds: number;
  /** Requests a client IP may make in a window. */
  limit: number | ((config: ApiGatewayConfig) => number);
  /** The 429's message. */
  message: string;
}

/**
 * Limits a public endpoint per client IP. A guard runs before `@Input()` parses the request, so
 * malformed requests are counted too and cannot be sent without limit either.
 */
export const RateLimit = (rule: RateLimitRule): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMIT, rule), UseGuards(RateLimitGuard));

@Injectable()
class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly counter: WindowCounter,
    private readonly keys: RedisKeys,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.get<RateLimitRule | undefined>(RATE_LIMIT, context.getHandler());
    if (rule === undefined) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const attempts = await this.counter.hit(
      this.keys.key('rate', rule.name, clientIp(request)),
      rule.windowSeconds,
    );
    const limit = typeof rule.limit === 'number' ? rule.limit : rule.limit(this.config);
    if (attempts > limit) throw new HttpException(rule.message, HttpStatus.TOO_MANY_REQUESTS);
    return true;
  }
}
