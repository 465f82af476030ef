import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { RedisKeys, WindowCounter } from '../common/redis-keys';
import type { ApiGatewayConfig } from '../config';

export const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again later.';

/** Failed logins counted per account and per client IP; either reaching the limit blocks logins. */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly counter: WindowCounter,
    private readonly keys: RedisKeys,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  /** Throws 429 (the same text whichever limit was hit) while the account or the IP is blocked. */
  async assertAllowed(username: string, ip: string): Promise<void> {
    const counts = await this.counter.current(this.accountKey(username), this.ipKey(ip));
    if (counts.some((count) => count >= this.config.loginMaxFailures)) {
      throw new HttpException(TOO_MANY_LOGINS, HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const window = this.config.loginFailureWindowSeconds;
    await Promise.all([
      this.counter.hit(this.accountKey(username), window),
      this.counter.hit(this.ipKey(ip), window),
    ]);
  }

  /** A successful login clears the account's count (the IP's stays: it may be guessing others). */
  async recordSuccess(username: string): Promise<void> {
    await this.counter.reset(this.accountKey(username));
  }

  private accountKey(username: string): string {
    return this.keys.key('login-failures', 'account', username.trim().toLowerCase());
  }

  private ipKey(ip: string): string {
    return this.keys.key('login-failures', 'ip', ip);
  }
}
