import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import { RedisKeys } from '../common/redis-keys';
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
 * Counts a login attempt on the IP, (account, IP) and account keys, unless the IP's or the pair's
 * count is at the limit (ARGV[1]); a new count lives ARGV[2] seconds. One script, so concurrent
 * attempts are admitted one at a time. Answers [admitted (1/0), the account's count before it].
 */
const ADMIT_SCRIPT = `
local limit = tonumber(ARGV[1])
for i = 1, 2 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= limit then return {0, 0} end
end
local counts = {}
for i = 1, 3 do
  redis.call('SET', KEYS[i], 0, 'EX', ARGV[2], 'NX')
  counts[i] = redis.call('INCR', KEYS[i])
end
return {1, counts[3] - 1}`;

/** A successful attempt: the IP's count gives its slot back; the account's counts are cleared. */
const SUCCESS_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
redis.call('DEL', KEYS[2], KEYS[3])
return 1`;

/** An admitted login attempt: counted as a failure until it succeeds. */
export interface LoginAttempt {
  username: string;
  ip: string;
  /** Where it was counted: Redis, or this process while Redis was unreachable. */
  countedIn: 'redis' | 'local';
}

/**
 * Login attempts counted per client IP, per (account, IP) and per account, before the password is
 * checked: an attempt holds its place in the counts while it is checked, stays there as a failure
 * and gives it back on success, so a burst sent at once is held to the limit like a sequence.
 * With LOGIN_MAX_FAILURES failed (or pending) attempts from an IP, that IP is blocked; with as many
 * for an account from one IP, that account is blocked from that IP only. Failures of an account
 * from many IPs (spoofed or a botnet) never lock it: they slow every login of it down (at most
 * LOGIN_SLOWDOWN_MAX_MS), so the right password from another IP still works and a stranger cannot
 * lock an admin out.
 * The counts live in Redis; while Redis is unreachable this process counts on its own (same
 * limits and windows, and as atomically: check and count in one synchronous step), so an outage
 * neither makes logging in impossible nor lifts the throttle.
 */
@Injectable()
export class LoginThrottleService {
  private readonly local = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly keys: RedisKeys,
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  /**
   * Counts this attempt before its password is checked, or throws 429 (the same text whichever
   * limit was hit, the attempt not counted) while the IP, or the account from this IP, is at the
   * limit; then waits the account's slowdown, if any.
   */
  async admit(username: string, ip: string): Promise<LoginAttempt> {
    const keys = this.keysOf(username, ip);
    const limit = this.config.loginMaxFailures;
    const window = this.config.loginFailureWindowSeconds;
    const counted = await this.orLocally<{
      admitted: boolean;
      accountFailures: number;
      countedIn: LoginAttempt['countedIn'];
    }>(
      async () => {
        const [admitted, accountFailures] = (await this.redis.eval(
          ADMIT_SCRIPT,
          keys.length,
          ...keys,
          limit,
          window,
        )) as [number, number];
        return { admitted: admitted === 1, accountFailures, countedIn: 'redis' };
      },
      () => ({ ...this.admitLocally(keys, limit, window), countedIn: 'local' }),
    );
    if (!counted.admitted) throw new HttpException(TOO_MANY_LOGINS, HttpStatus.TOO_MANY_REQUESTS);
    const delay = this.slowdownMs(counted.accountFailures);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return { username, ip, countedIn: counted.countedIn };
  }

  /** The wait an account's failures from everywhere impose on each of its logins. */
  slowdownMs(accountFailures: number): number {
    const excess = accountFailures - this.config.loginMaxFailures + 1;
    return excess <= 0 ? 0 : Math.min(LOGIN_SLOWDOWN_MAX_MS, excess * LOGIN_SLOWDOWN_STEP_MS);
  }

  /**
   * A successful login gives the IP its place back and clears the account's counts (everywhere,
   * and from this IP); the IP's failures stay: it may be guessing other accounts.
   */
  async recordSuccess({ username, ip, countedIn }: LoginAttempt): Promise<void> {
    const [ipKey, pairKey, accountKey] = this.keysOf(username, ip);
    this.local.delete(pairKey);
    this.local.delete(accountKey);
    if (countedIn === 'local') {
      const entry = this.local.get(ipKey);
      if (entry !== undefined && entry.count > 0) entry.count -= 1;
      return;
    }
    await this.orLocally(
      async () => {
        await this.redis.eval(SUCCESS_SCRIPT, 3, ipKey, pairKey, accountKey);
      },
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

  private localCount(key: string, now: number): number {
    const entry = this.local.get(key);
    return entry === undefined || entry.endsAt <= now ? 0 : entry.count;
  }

  /** The in-process ADMIT_SCRIPT: synchronous, so concurrent attempts are admitted one at a time. */
  private admitLocally(
    [ipKey, pairKey, accountKey]: [string, string, string],
    limit: number,
    windowSeconds: number,
  ): { admitted: boolean; accountFailures: number } {
    const now = Date.now();
    if (this.localCount(ipKey, now) >= limit || this.localCount(pairKey, now) >= limit) {
      return { admitted: false, accountFailures: 0 };
    }
    this.localHit(ipKey, windowSeconds, now);
    this.localHit(pairKey, windowSeconds, now);
    return { admitted: true, accountFailures: this.localHit(accountKey, windowSeconds, now) - 1 };
  }

  private localHit(key: string, windowSeconds: number, now: number): number {
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

  /** The IP's, the (account, IP) pair's and the account's keys. */
  private keysOf(username: string, ip: string): [string, string, string] {
    return [this.ipKey(ip), this.pairKey(username, ip), this.accountKey(username)];
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
