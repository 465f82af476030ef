import { Logger } from '@nestjs/common';
import type { SpendLedgerOptions, SpendSignals } from '@sprout/domain';
import type { Redis } from 'ioredis';
import { type Metrics, counter, defineMetrics, gauge } from '../metrics/metrics';

const spendMetrics = defineMetrics({
  crossed: counter(
    'sprout_spend_threshold_crossed_total',
    'Times the day’s AI spend crossed a share of the daily limit (80 or 100 percent)',
    ['threshold'],
  ),
  refused: counter(
    'sprout_spend_calls_refused_total',
    'Model calls not made because the daily spending limit was reached, by purpose (reply, summary, image)',
    ['purpose'],
  ),
  spent: gauge('sprout_spend_today_dollars', 'AI spend since midnight (SPEND_TIME_ZONE)'),
  limit: gauge('sprout_spend_limit_dollars', 'The daily AI spending limit'),
});

/**
 * The spend ledger's signals in a service (ai-responder, image-processor): the spend gauges and
 * counters on its /metrics, the threshold warnings in its log, and Redis SET NX under the
 * deployment's prefix so each threshold is announced once across replicas.
 */
function spendSignals(deps: { metrics: Metrics; redis: Redis; keyPrefix: string }): SpendSignals {
  const logger = new Logger('SpendLedger');
  const { crossed, refused, spent, limit } = spendMetrics(deps.metrics);
  return {
    spend(today, dailyLimit) {
      spent.set(today);
      limit.set(dailyLimit);
    },
    refused(purpose) {
      refused.inc({ purpose });
    },
    async claimOnce(key, ttlSeconds) {
      try {
        const first = await deps.redis.set(
          `${deps.keyPrefix}:${key}`,
          String(Date.now()),
          'EX',
          ttlSeconds,
          'NX',
        );
        return first !== null;
      } catch (error) {
        // Without Redis every replica may announce it; better twice than never.
        logger.warn(
          `Spend alert dedupe unavailable: ${error instanceof Error ? error.message : String(error)}`,
        );
        return true;
      }
    },
    crossed(threshold, message) {
      crossed.inc({ threshold: String(threshold) });
      logger.warn(message);
    },
  };
}

/** A service's SpendLedger options: its SPEND_TIME_ZONE, and signals on its metrics, log and Redis. */
export function spendLedgerOptions(deps: {
  config: { spendTimeZone: string; bullmqPrefix: string };
  metrics: Metrics;
  redis: Redis;
}): SpendLedgerOptions {
  return {
    timeZone: deps.config.spendTimeZone,
    signals: spendSignals({ metrics: deps.metrics, redis: deps.redis, keyPrefix: deps.config.bullmqPrefix }),
  };
}
