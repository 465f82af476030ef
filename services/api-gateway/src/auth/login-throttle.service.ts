import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import { RedisKeys, WindowCounter } from '../common/redis-keys';
import type { ApiGatewayConfig } from '../config';

export const TOO_MANY_LOGINS = 'Too many failed login attempts. Please try again later.';

/** A Redis call of the throttle gives up after this long and the in-process count is used. */
const REDIS_TIMEOUT_MS = 1_000;
/** Counters the in-process fallback keeps; the oldest is dropped beyond this. */
const LOCAL_COUNTERS_MAX = 10_000;

/**
 * Failed logins counted per account and per client IP; either reaching the limit blocks logins.
 * The counts live in Redis; while Redis is unreachable this process counts on its own (same
 * limits and windows), so an outage neither makes logging in impossible nor lifts the throttle.
 */
@Injectable()
export class LoginThrottleService {
  private readonly local = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly counter: WindowCounter,
    private readonly keys: RedisKeys,
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  /** Throws 429 (the same text whichever limit was hit) while the account or the IP is blocked. */
  async assertAllowed(username: string, ip: string): Promise<void> {
    const keys = [this.accountKey(username), this.ipKey(ip)];
    const counts = await this.orLocally(
      () => this.counter.current(...keys),
      () => keys.map((key) => this.localCount(key)),
    );
    if (counts.some((count) => count >= this.config.loginMaxFailures)) {
      throw new HttpException(TOO_MANY_LOGINS, HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const window = this.config.loginFailureWindowSeconds;
    for (const key of [this.accountKey(username), this.ipKey(ip)]) {
      await this.orLocally(
        () => this.counter.hit(key, window),
        () => this.localHit(key, window),
      );
    }
  }

  /** A successful login clears the account's count (the IP's stays: it may be guessing others). */
  async recordSuccess(username: string): Promise<void> {
    const key = this.accountKey(username);
    this.local.delete(key);
    await this.orLocally(
      () => this.counter.reset(key),
      () => undefined,
    );
  }

  /** Redis when it answers in time, else the in-process counters (ioredis queues commands while down). */
  private async orLocally<T>(inRedis: () => Promise<T>, locally: () => T): Promise<T> {
    if (this.redis.status !== 'ready') return locally();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        inRedis(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('Redis did not answer')), REDIS_TIMEOUT_MS);
        }),
      ]);
    } catch {
      return locally();
    } finally {
      clearTimeout(timer);
    }
  }

  private localCount(key: string, now = Date.now()): number {
    const entry = this.local.get(key);
    return entry === undefined || entry.endsAt <= now ? 0 : entry.count;
  }

  private localHit(key: string, windowSeconds: number, now = Date.now()): number {
    const count = this.localCount(key, now) + 1;
    const endsAt = count === 1 ? now + windowSeconds * 1000 : (this.local.get(key)?.endsAt ?? now);
    this.local.delete(key);
    if (this.local.size >= LOCAL_COUNTERS_MAX) {
      const oldest = this.local.keys().next();
      if (oldest.done !== true) this.local.delete(oldest.value);
    }
    this.local.set(key, { count, endsAt });
    return count;
  }

  private accountKey(username: string): string {
    return this.keys.key('login-failures', 'account', username.trim().toLowerCase());
  }

  private ipKey(ip: string): string {
    return this.keys.key('login-failures', 'ip', ip);
  }
}
