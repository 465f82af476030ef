import { Inject, Injectable } from '@nestjs/common';
import {
  SMS_CIRCUIT_INITIAL,
  type SmsCircuitState,
  smsCircuitKey,
  smsCircuitStateSchema,
} from '@sprout/contracts';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import type { SmsGatewayConfig } from '../config';

/** A probe send that has not reported back within this long counts as lost: another may go. */
const PROBE_TIMEOUT_MS = 15_000;

// One script per transition, so replicas never interleave a read and a write. Time is Redis's
// (TIME), the one clock all replicas share. The state is JSON (contracts' smsCircuitStateSchema).
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local raw = redis.call('GET', KEYS[1])
local s
if raw then s = cjson.decode(raw) else
  s = { state = 'closed', consecutiveFailures = 0, openedAt = cjson.null, retryAt = cjson.null,
        lastError = cjson.null, updatedAt = 0 }
end
local op = ARGV[1]
if op == 'peek' or op == 'acquire' then
  if s.state == 'closed' then return { 0, s.state } end
  -- A probe in flight: look again soon (it may end quickly), not only when it times out.
  if s.state == 'half-open' and now < s.retryAt then
    return { math.min(s.retryAt - now, tonumber(ARGV[3])), s.state }
  end
  if now < s.retryAt then return { s.retryAt - now, s.state } end
  if op == 'peek' then return { 0, s.state } end
  s.state = 'half-open'
  s.retryAt = now + tonumber(ARGV[4])
elseif op == 'success' then
  if s.state == 'closed' and s.consecutiveFailures == 0 then return { 0, s.state } end
  s.state = 'closed'
  s.consecutiveFailures = 0
  s.retryAt = cjson.null
  s.lastError = cjson.null
elseif op == 'failure' then
  s.consecutiveFailures = s.consecutiveFailures + 1
  s.lastError = ARGV[5]
  if s.state == 'half-open' or (s.state == 'closed' and s.consecutiveFailures >= tonumber(ARGV[2])) then
    s.state = 'open'
    s.openedAt = now
    s.retryAt = now + tonumber(ARGV[3])
  end
end
s.updatedAt = now
redis.call('SET', KEYS[1], cjson.encode(s))
return { 0, s.state }
`;

/** Defined on the connection: ioredis sends the script once per connection, then its SHA only. */
const CIRCUIT_COMMAND = 'sproutSmsCircuit';
type CircuitCommand = Record<
  typeof CIRCUIT_COMMAND,
  (key: string, ...args: string[]) => Promise<[number, string]>
>;

export interface CircuitPermit {
  /** 0: go ahead; otherwise how long until Twilio may be tried again. */
  waitMs: number;
}

/**
 * The Twilio send circuit, shared by every sms-gateway replica through one Redis key: closed
 * (sending), open after `smsCircuitFailureThreshold` failures in a row (nothing is sent, replies
 * are held), half-open once `smsCircuitOpenMs` has passed (exactly one send probes Twilio),
 * closed again on the probe's success, open again on its failure.
 */
@Injectable()
export class SendCircuit {
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: SmsGatewayConfig,
  ) {
    this.key = smsCircuitKey(config.bullmqPrefix);
    redis.defineCommand(CIRCUIT_COMMAND, { numberOfKeys: 1, lua: SCRIPT });
  }

  /** Whether a send could go now, without taking the probe (a paced job asks before reserving). */
  peek(): Promise<CircuitPermit> {
    return this.run('peek');
  }

  /** Permission to call Twilio; in an open circuit whose time has come, this caller is the probe. */
  acquire(): Promise<CircuitPermit> {
    return this.run('acquire');
  }

  async recordSuccess(): Promise<void> {
    await this.run('success');
  }

  async recordFailure(error: string): Promise<void> {
    await this.run('failure', error.slice(0, 300));
  }

  async state(): Promise<SmsCircuitState> {
    const raw = await this.redis.get(this.key);
    return raw === null ? SMS_CIRCUIT_INITIAL : smsCircuitStateSchema.parse(JSON.parse(raw));
  }

  private async run(op: string, error = ''): Promise<CircuitPermit> {
    const answer = await (this.redis as unknown as CircuitCommand)[CIRCUIT_COMMAND](
      this.key,
      op,
      String(this.config.smsCircuitFailureThreshold),
      String(this.config.smsCircuitOpenMs),
      String(PROBE_TIMEOUT_MS),
      error,
    );
    return { waitMs: Math.max(0, Number(answer[0])) };
  }
}
