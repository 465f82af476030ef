import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { SmsGatewayConfig } from '../config';

type SenderType = 'long-code' | 'toll-free' | 'short-code';

const TOLL_FREE = /^\+18(00|33|44|55|66|77|88)\d{7}$/;

/** US short codes are 5 or 6 digits; toll-free numbers have their own prefixes; the rest are long codes. */
const senderTypeOf = (sender: string): SenderType =>
  /^\d{5,6}$/.test(sender) ? 'short-code' : TOLL_FREE.test(sender) ? 'toll-free' : 'long-code';

// GCRA with reservations: each call books the sender's next free slot for `cost` segments and
// answers how long until that slot, so a job waits exactly once (delayed in Redis, off the
// worker). The key holds the theoretical arrival time (ms) of the next free slot. Redis's clock.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nextTat = tat + tonumber(ARGV[1]) * tonumber(ARGV[2])
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now) + 1000)
return { math.ceil(tat - now), math.floor(tat) }
`;

/** Defined on the connection: ioredis sends the script once per connection, then its SHA only. */
const RESERVE_COMMAND = 'sproutSmsPaceReserve';
type ReserveCommand = Record<
  typeof RESERVE_COMMAND,
  (key: string, ...args: string[]) => Promise<[number, number]>
>;

/** A reservation not used within this long after its slot is dropped (a newer one is taken). */
const SLOT_GRACE_MS = 1_000;
/** Reservations keyed by message live at most this long past their slot. */
const SLOT_TTL_MS = 60_000;

export type PaceDecision = { go: true } | { go: false; waitMs: number };

/**
 * Paces outbound segments per sending number at the carrier's rate, shared by every sms-gateway
 * replica (the counters are in Redis). A burst from one number books that number's slots only;
 * other numbers are not delayed.
 */
@Injectable()
export class SenderPacer {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {
    this.prefix = `${config.bullmqPrefix}:sms:pace`;
    redis.defineCommand(RESERVE_COMMAND, { numberOfKeys: 1, lua: RESERVE });
  }

  /** Segments per second this number may send. */
  rateOf(sender: string): number {
    const configured = this.config.smsSenderRates[sender];
    if (configured !== undefined) return configured;
    switch (senderTypeOf(sender)) {
      case 'short-code':
        return this.config.smsShortCodeRate;
      case 'toll-free':
        return this.config.smsTollFreeRate;
      case 'long-code':
        return this.config.smsLongCodeRate;
    }
  }

  /**
   * Whether `messageId` may go out from `sender` now. The first call books a slot for its
   * segments and, if the slot is later, answers the wait; the call at that time goes ahead.
   */
  async pace(sender: string, messageId: string, segments: number): Promise<PaceDecision> {
    const slotKey = `${this.prefix}:slot:${messageId}`;
    const [booked, time] = await Promise.all([this.redis.get(slotKey), this.redisNow()]);
    if (booked !== null) {
      const slot = Number(booked);
      if (slot > time) return { go: false, waitMs: slot - time };
      await this.redis.del(slotKey);
      if (time - slot <= SLOT_GRACE_MS) return { go: true };
      // Held past its slot (the circuit opened meanwhile): book again rather than burst.
    }
    const intervalMs = 1000 / this.rateOf(sender);
    const [waitMs, slot] = await (this.redis as unknown as ReserveCommand)[RESERVE_COMMAND](
      `${this.prefix}:${sender}`,
      String(intervalMs),
      String(Math.max(1, segments)),
    );
    if (waitMs <= 0) return { go: true };
    await this.redis.set(slotKey, String(slot), 'PX', waitMs + SLOT_TTL_MS);
    return { go: false, waitMs };
  }

  private async redisNow(): Promise<number> {
    const [seconds, micros] = await this.redis.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }
}
