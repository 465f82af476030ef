import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { SmsGatewayConfig } from '../config';

type SenderType = 'long-code' | 'toll-free' | 'short-code';

const TOLL_FREE = /^\+18(00|33|44|55|66|77|88)\d{7}$/;

/** US short codes are 5 or 6 digits; toll-free numbers have their own prefixes; the rest are long codes. */
const senderTypeOf = (sender: string): SenderType =>
  /^\d{5,6}$/.test(sender) ? 'short-code' : TOLL_FREE.test(sender) ? 'toll-free' : 'long-code';

// GCRA with reservations: the first call for a message books the sender's next free slot for
// its segments and, when the slot is later, keeps it under the message's key and answers the wait,
// so a job waits exactly once (delayed in Redis, off the worker); the call at that time goes
// ahead. KEYS[1] holds the sender's theoretical arrival time (ms) of its next free slot, KEYS[2]
// the message's booked slot. One script, so a send costs one round trip. Redis's clock.
// ARGV: interval ms, segments, grace ms, booked slot TTL past the slot (ms). Answers the wait (ms).
const PACE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local booked = redis.call('GET', KEYS[2])
if booked then
  local slot = tonumber(booked)
  if slot > now then return slot - now end
  redis.call('DEL', KEYS[2])
  if now - slot <= tonumber(ARGV[3]) then return 0 end
  -- Held past its slot (the circuit opened meanwhile): book again rather than burst.
end
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nextTat = tat + tonumber(ARGV[1]) * tonumber(ARGV[2])
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now) + 1000)
local wait = math.ceil(tat - now)
if wait > 0 then redis.call('SET', KEYS[2], tostring(math.floor(tat)), 'PX', wait + tonumber(ARGV[4])) end
return wait
`;

/** Defined on the connection: ioredis sends the script once per connection, then its SHA only. */
const PACE_COMMAND = 'sproutSmsPace';
type PaceCommand = Record<
  typeof PACE_COMMAND,
  (senderKey: string, slotKey: string, ...args: string[]) => Promise<number>
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
    redis.defineCommand(PACE_COMMAND, { numberOfKeys: 2, lua: PACE });
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
    const waitMs = await (this.redis as unknown as PaceCommand)[PACE_COMMAND](
      `${this.prefix}:${sender}`,
      `${this.prefix}:slot:${messageId}`,
      String(1000 / this.rateOf(sender)),
      String(Math.max(1, segments)),
      String(SLOT_GRACE_MS),
      String(SLOT_TTL_MS),
    );
    return waitMs <= 0 ? { go: true } : { go: false, waitMs };
  }
}
