import { Inject, Injectable, Logger } from '@nestjs/common';
import { type SenderLimitWindow, recordSenderRefusal } from '@sprout/domain';
import type { EntityManager } from 'typeorm';
import { CONFIG, Metrics } from '@sprout/platform';
import { Redis } from 'ioredis';
import { type AiResponderConfig } from '../config';
import { aiResponderMetrics } from '../metrics';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A text the sender's limits refuse: the window that keeps them waiting longest, and until when. */
export interface SenderLimitHit {
  window: SenderLimitWindow;
  limit: number;
  until: Date;
}

// A sliding log per sender in Redis: a sorted set of the texts answered in the last 24 hours
// (member: the inbound message id, score: when it was admitted). One script call checks every
// window and admits the text only while each holds fewer than its limit, so replicas admitting a
// sender's texts at once never pass a limit together. A text admitted before (a retried job, an
// MMS run again after its image analysis) is admitted again without counting twice. A refused
// text is not logged: a sender is answered again as soon as the oldest reply of the full window
// leaves it, however many texts they send meanwhile. Answers {1} (admitted) or
// {0, window index, until ms}.
const ADMIT = `
local now = tonumber(ARGV[1])
local longest = 0
for i = 3, #ARGV, 2 do longest = math.max(longest, tonumber(ARGV[i])) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - longest)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return {1} end
local window, untilMs = 0, 0
for i = 3, #ARGV, 2 do
  local span, limit = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local from = '(' .. tostring(now - span)
  local count = redis.call('ZCOUNT', KEYS[1], from, '+inf')
  if count >= limit then
    local leaving = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', count - limit, 1)
    local reopens = tonumber(leaving[2]) + span
    if reopens > untilMs then window, untilMs = (i - 1) / 2, reopens end
  end
end
if window > 0 then return {0, window, untilMs} end
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], longest)
return {1}
`;

/** Defined on the connection: ioredis sends the script once per connection, then its SHA only. */
const ADMIT_COMMAND = 'sproutSenderAdmit';
type AdmitCommand = Record<typeof ADMIT_COMMAND, (key: string, ...args: string[]) => Promise<number[]>>;

/** "about 12 minutes", "about an hour", "about 5 hours": when a limited sender is answered again. */
export const waitInWords = (ms: number): string => {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  if (minutes === 1) return 'about a minute';
  if (minutes < 60) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? 'about an hour' : `about ${hours} hours`;
};

/** The one notice a limited sender gets (GSM-7, one segment). */
export const limitNotice = (waitMs: number): string =>
  `You've sent a lot of messages, so I'm taking a short break. I'll answer again in ${waitInWords(waitMs)}.`;

/**
 * Per-sender reply limits (SENDER_REPLIES_PER_MINUTE, _PER_HOUR, _PER_DAY), counted for every
 * replica at once in Redis. A refused text is recorded in sender_limits (what admins see), and
 * the first of a stretch is the one that gets the notice.
 */
@Injectable()
export class SenderLimits {
  private readonly logger = new Logger(SenderLimits.name);
  private readonly metrics;
  private readonly windows: ReadonlyArray<{ window: SenderLimitWindow; spanMs: number; limit: number }>;

  constructor(
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
    metrics: Metrics,
  ) {
    this.metrics = aiResponderMetrics(metrics);
    this.windows = [
      { window: 'minute', spanMs: MINUTE_MS, limit: config.senderRepliesPerMinute },
      { window: 'hour', spanMs: HOUR_MS, limit: config.senderRepliesPerHour },
      { window: 'day', spanMs: DAY_MS, limit: config.senderRepliesPerDay },
    ];
    redis.defineCommand(ADMIT_COMMAND, { numberOfKeys: 1, lua: ADMIT });
  }

  /** Admits `messageId` from `userId` (counting it), or answers the limit that refuses it. */
  async admit(userId: string, messageId: string, now: Date): Promise<SenderLimitHit | null> {
    const args = this.windows.flatMap((w) => [String(w.spanMs), String(w.limit)]);
    const key = `${this.config.bullmqPrefix}:sender-replies:${userId}`;
    const answer = await (this.redis as unknown as AdmitCommand)[ADMIT_COMMAND](
      key,
      String(now.getTime()),
      messageId,
      ...args,
    );
    if (answer[0] === 1) return null;
    const hit = this.windows[(answer[1] ?? 1) - 1] ?? this.windows[0];
    if (hit === undefined) throw new Error('No sender limit windows');
    return { window: hit.window, limit: hit.limit, until: new Date(answer[2] ?? now.getTime()) };
  }

  /**
   * Records a refused text in its sender's stretch (sender_limits) and counts it. True when it
   * starts the stretch: that text, and only that one, gets the notice.
   */
  async refuse(db: EntityManager, userId: string, hit: SenderLimitHit, now: Date): Promise<boolean> {
    const stretch = await recordSenderRefusal(db, {
      userId,
      window: hit.window,
      limit: hit.limit,
      at: now,
      until: hit.until,
    });
    this.metrics.senderLimited.inc({ window: hit.window });
    if (stretch.opened) {
      this.logger.warn(
        `Sender ${userId} is over ${hit.limit} replies per ${hit.window}: not answered until ${hit.until.toISOString()}`,
      );
    }
    return stretch.opened;
  }
}
