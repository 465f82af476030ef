import { Inject, Injectable } from '@nestjs/common';
import { SpendLedger } from '@sprout/domain';
import { CONFIG, Metrics, spendLedgerOptions } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { type AiResponderConfig } from '../config';

/**
 * The ledger of paid calls (libs/domain SpendLedger) in ai-responder: replies and summaries
 * reserve each model call's worst case against the daily spending limit before calling, settle
 * it afterwards, and write the rows of answers no model wrote through it. Spend, the limit and the
 * 80%/100% announcements are on this service's /metrics and log.
 */
@Injectable()
export class SpendingService extends SpendLedger {
  constructor(
    dataSource: DataSource,
    redis: Redis,
    @Inject(CONFIG) config: AiResponderConfig,
    metrics: Metrics,
  ) {
    super(dataSource, spendLedgerOptions({ config, metrics, redis }));
  }
}
