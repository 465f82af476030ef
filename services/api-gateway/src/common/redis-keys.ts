import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { ApiGatewayConfig } from '../config';

/**
 * This service's own Redis keys (sessions, counters) live under the BullMQ prefix, so one prefix
 * isolates a deployment (and each test file) completely.
 */
@Injectable()
export class RedisKeys {
  constructor(@Inject(CONFIG) private readonly config: ApiGatewayConfig) {}

  key(...parts: string[]): string {
    return [this.config.bullmqPrefix, ...parts].join(':');
  }
}

/** Fixed-window counters in Redis: request rate limits (the login throttle counts in its own script). */
@Injectable()
export class WindowCounter {
  constructor(private readonly redis: Redis) {}

  /** Counts one event; the window starts with the first event and the count resets after it. */
  async hit(key: string, windowSeconds: number): Promise<number> {
    const results = await this.redis.multi().set(key, 0, 'EX', windowSeconds, 'NX').incr(key).exec();
    const incremented = results?.[1];
    if (incremented === undefined || incremented[0] !== null) {
      throw incremented?.[0] ?? new Error(`Redis transaction on ${key} was aborted`);
    }
    return Number(incremented[1]);
  }
}
