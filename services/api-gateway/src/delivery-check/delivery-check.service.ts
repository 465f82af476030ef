import {
  BadGatewayException,
  GatewayTimeoutException,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { jobDefinitions } from '@sprout/contracts';
import { conversationExists } from '@sprout/domain';
import { JobQueues, JobTimeoutError } from '@sprout/platform';
import { DataSource } from 'typeorm';
import { z } from 'zod';

/** How long the endpoint waits for the sms-gateway worker's answer. */
const DELIVERY_CHECK_TIMEOUT_MS = 15_000;

export const CONVERSATION_NOT_FOUND = 'Conversation not found.';
const DELIVERY_CHECK_TIMED_OUT = 'Checking delivery status is taking too long. Please try again.';
export const DELIVERY_CHECK_FAILED = 'Could not check delivery status with the SMS provider.';

/** The delivery.check result: `changed` (the contract) and `checked`, which sms-gateway adds. */
const CheckResult = z.object({
  changed: z.int().min(0),
  checked: z.int().min(0).optional(),
});

export interface DeliveryCheckOutcome {
  /** Outbound messages whose provider status was read. */
  checked: number;
  /** Messages whose stored status changed. */
  updated: number;
}

@Injectable()
export class DeliveryCheckService {
  private readonly logger = new Logger(DeliveryCheckService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: JobQueues,
  ) {}

  /**
   * Asks sms-gateway (delivery.check) to re-read the provider status of the conversation's
   * messages that are not final yet, and waits for its answer (job id: conversation + minute).
   */
  async check(conversationId: string): Promise<DeliveryCheckOutcome> {
    if (!(await conversationExists(this.dataSource, conversationId)))
      throw new NotFoundException(CONVERSATION_NOT_FOUND);

    const payload = { conversationId, requestedAt: new Date().toISOString() };
    const jobId = jobDefinitions['delivery.check'].jobId?.(payload);
    if (jobId !== undefined) {
      // A check still running is shared (two clicks, one job); a finished one would answer its
      // old result until the minute is over, so it makes way for a fresh check.
      const previous = await this.queues.queue('delivery.check').getJob(jobId);
      const state = await previous?.getState();
      if (state === 'completed' || state === 'failed') {
        await previous?.remove().catch((error: unknown) => {
          this.logger.debug(`Job ${jobId} was already gone: ${String(error)}`);
        });
      }
    }

    let raw: unknown;
    try {
      raw = await this.queues.enqueueAndWait('delivery.check', payload, DELIVERY_CHECK_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof JobTimeoutError) throw new GatewayTimeoutException(DELIVERY_CHECK_TIMED_OUT);
      this.logger.warn(
        `Delivery check of conversation ${conversationId} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new BadGatewayException(DELIVERY_CHECK_FAILED);
    }
    const result = CheckResult.safeParse(raw);
    if (!result.success) {
      this.logger.error(`Delivery check of conversation ${conversationId} answered ${JSON.stringify(raw)}`);
      throw new BadGatewayException(DELIVERY_CHECK_FAILED);
    }
    return { checked: result.data.checked ?? result.data.changed, updated: result.data.changed };
  }
}
