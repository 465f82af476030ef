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

/** Longest a login waits because of its account's failures from everywhere. */
export const LOGIN_SLOWDOWN_MAX_MS = 2_000;
/** Added wait per account-wide failure past the limit. */
const LOGIN_SLOWDOWN_STEP_MS = 250;

/**
 * Failed logins counted per client IP, per (account, IP) and per account. Reaching the limit from
 * an IP blocks that IP; reaching it for an account from one IP blocks that account from that IP
 * only. Failures of an account from many IPs (spoofed or a botnet) never lock it: they slow every
 * login of it down (at most LOGIN_SLOWDOWN_MAX_MS), so the right password from another IP still
 * works and a stranger cannot lock an admin out.
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

  /**
   * Throws 429 (the same text whichever limit was hit) while the IP, or the account from this IP,
   * is blocked; otherwise waits the account's slowdown, if any.
   */
  async assertAllowed(username: string, ip: string): Promise<void> {
    const keys = [this.ipKey(ip), this.pairKey(username, ip), this.accountKey(username)];
    const [fromIp = 0, fromPair = 0, forAccount = 0] = await this.orLocally(
      () => this.counter.current(...keys),
      () => keys.map((key) => this.localCount(key)),
    );
    const limit = this.config.loginMaxFailures;
    if (fromIp >= limit || fromPair >= limit) {
      throw new HttpException(TOO_MANY_LOGINS, HttpStatus.TOO_MANY_REQUESTS);
    }
    const delay = this.slowdownMs(forAccount);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** The wait an account's failures from everywhere impose on each of its logins. */
  slowdownMs(accountFailures: number): number {
    const excess = accountFailures - this.config.loginMaxFailures + 1;
    return excess <= 0 ? 0 : Math.min(LOGIN_SLOWDOWN_MAX_MS, excess * LOGIN_SLOWDOWN_STEP_MS);
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    const window = this.config.loginFailureWindowSeconds;
    for (const key of [this.ipKey(ip), this.pairKey(username, ip), this.accountKey(username)]) {
      await this.orLocally(
        () => this.counter.hit(key, window),
        () => this.localHit(key, window),
      );
    }
  }

  /**
   * A successful login clears the account's counts (everywhere, and from this IP); the IP's stays:
   * it may be guessing other accounts.
   */
  async recordSuccess(username: string, ip?: string): Promise<void> {
    const keys = [this.accountKey(username), ...(ip === undefined ? [] : [this.pairKey(username, ip)])];
    for (const key of keys) {
      this.local.delete(key);
      await this.orLocally(
        () => this.counter.reset(key),
        () => undefined,
      );
    }
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

  private pairKey(username: string, ip: string): string {
    return this.keys.key('login-failures', 'account-ip', username.trim().toLowerCase(), ip);
  }

  private ipKey(ip: string): string {
    return this.keys.key('login-failures', 'ip', ip);
  }
}
