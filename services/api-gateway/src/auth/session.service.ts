import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { RedisKeys } from '../common/redis-keys';
import { isHttps } from '../common/request-info';
import type { ApiGatewayConfig } from '../config';

export const SESSION_COOKIE = 'sprout_session';

const SessionRecord = z.object({
  adminUserId: z.string(),
  username: z.string(),
  /** Epoch milliseconds. The idle timeout is the key's TTL, slid on every authenticated request. */
  createdAt: z.number(),
});
type SessionRecord = z.infer<typeof SessionRecord>;

export interface AdminSession {
  id: string;
  adminUserId: string;
  username: string;
}

/** A session confirmed in Redis at `checkedAt` (epoch ms). */
interface VerifiedSession {
  session: AdminSession;
  createdAt: number;
  checkedAt: number;
}

/** How long a session confirmed in Redis is trusted without asking again (at most a tenth of the idle timeout). */
export const SESSION_RECHECK_MS = 5_000;
/** Sessions kept confirmed in memory; the oldest is forgotten beyond this. */
const VERIFIED_SESSIONS_MAX = 10_000;

/**
 * Server-side admin sessions in Redis (`<prefix>:sess:<id>`), referenced by a signed, httpOnly,
 * SameSite=Strict cookie. Authenticated requests slide the idle timeout (the key's TTL); the
 * absolute timeout caps a session's life however active it is.
 *
 * A session confirmed in Redis is trusted for SESSION_RECHECK_MS: a console polls several
 * endpoints at once, and a Redis round trip per request is most of an admin read's fixed cost.
 * Ending a session evicts it here at once and, through a Redis channel, in every other gateway;
 * while that channel is down nothing is trusted from memory.
 */
@Injectable()
export class SessionService implements OnModuleInit, OnModuleDestroy {
  private readonly byRequest = new WeakMap<FastifyRequest, AdminSession>();
  private readonly verified = new Map<string, VerifiedSession>();
  private subscriber: Redis | undefined;
  private revocationsHeard = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    // Its own connection (a subscribed one can do nothing else), subscribed anew on every
    // connect; trust in memory starts once the channel has answered.
    const subscriber = this.redis.duplicate({ lazyConnect: true, autoResubscribe: false });
    this.subscriber = subscriber;
    const stopTrusting = (): void => {
      this.revocationsHeard = false;
      this.verified.clear();
    };
    subscriber.on('error', stopTrusting);
    subscriber.on('close', stopTrusting);
    subscriber.on('ready', () => {
      subscriber.subscribe(this.revocationChannel()).then(() => {
        this.revocationsHeard = true;
      }, stopTrusting);
    });
    subscriber.on('message', (_channel: string, id: string) => {
      this.verified.delete(id);
    });
    // Without the channel every request asks Redis; ioredis keeps reconnecting.
    await subscriber.connect().catch(stopTrusting);
  }

  async onModuleDestroy(): Promise<void> {
    this.revocationsHeard = false;
    this.verified.clear();
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /** Starts a session with a fresh id; any session the request carried is ended first. */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    admin: { id: string; username: string },
  ): Promise<AdminSession> {
    const previous = this.idFromCookie(request);
    if (previous !== null) await this.revoke(previous);

    const id = randomBytes(32).toString('base64url');
    const now = Date.now();
    const record: SessionRecord = {
      adminUserId: admin.id,
      username: admin.username,
      createdAt: now,
    };
    await this.redis.set(this.key(id), JSON.stringify(record), 'PX', this.ttlMs(record, now));
    reply.setCookie(SESSION_COOKIE, id, {
      signed: true,
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      secure: isHttps(request),
    });
    const session = { id, adminUserId: admin.id, username: admin.username };
    this.byRequest.set(request, session);
    return session;
  }

  /**
   * The request's live session (and extends it), or null when absent, tampered with or expired.
   * At most one Redis round trip: GETEX reads the record and slides the idle timeout (the key's
   * TTL) together, and never recreates a key that logout deleted. The absolute timeout is checked
   * from the record.
   */
  async resume(request: FastifyRequest): Promise<AdminSession | null> {
    const cached = this.byRequest.get(request);
    if (cached !== undefined) return cached;
    const id = this.idFromCookie(request);
    if (id === null) return null;

    const now = Date.now();
    const idleMs = this.config.sessionIdleTimeoutSeconds * 1000;
    const known = this.verified.get(id);
    if (
      known !== undefined &&
      this.revocationsHeard &&
      now - known.checkedAt < Math.min(SESSION_RECHECK_MS, idleMs / 10) &&
      this.absoluteMsLeft(known.createdAt, now) > 0
    ) {
      this.byRequest.set(request, known.session);
      return known.session;
    }
    this.verified.delete(id);

    const key = this.key(id);
    const stored = await this.redis.getex(key, 'PX', idleMs);
    if (stored === null) return null;
    const parsed = SessionRecord.safeParse(safeJson(stored));
    const absoluteLeft = parsed.success ? this.absoluteMsLeft(parsed.data.createdAt, now) : 0;
    if (!parsed.success || absoluteLeft <= 0) {
      await this.redis.del(key);
      return null;
    }
    // Near the absolute timeout the key must go before a full idle period (rare: once a session).
    if (absoluteLeft < idleMs) await this.redis.pexpire(key, absoluteLeft);
    const session = { id, adminUserId: parsed.data.adminUserId, username: parsed.data.username };
    this.byRequest.set(request, session);
    if (this.verified.size >= VERIFIED_SESSIONS_MAX) {
      const oldest = this.verified.keys().next();
      if (oldest.done !== true) this.verified.delete(oldest.value);
    }
    this.verified.set(id, { session, createdAt: parsed.data.createdAt, checkedAt: now });
    return session;
  }

  /** Ends the request's session (if any) and clears the cookie. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = this.idFromCookie(request);
    if (id !== null) await this.revoke(id);
    this.byRequest.delete(request);
    reply.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: isHttps(request),
    });
  }

  /** The session a guard has already resumed for this request. */
  current(request: FastifyRequest): AdminSession | undefined {
    return this.byRequest.get(request);
  }

  private idFromCookie(request: FastifyRequest): string | null {
    const raw = request.cookies[SESSION_COOKIE];
    if (raw === undefined || raw === '') return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || unsigned.value === null || !/^[A-Za-z0-9_-]{43}$/.test(unsigned.value))
      return null;
    return unsigned.value;
  }

  /** Deletes the session and tells every gateway (this one included) to forget it. */
  private async revoke(id: string): Promise<void> {
    this.verified.delete(id);
    await this.redis.multi().del(this.key(id)).publish(this.revocationChannel(), id).exec();
  }

  private key(id: string): string {
    return this.keys.key('sess', id);
  }

  private revocationChannel(): string {
    return this.keys.key('sess-revoked');
  }

  private absoluteMsLeft(createdAt: number, now: number): number {
    return createdAt + this.config.sessionAbsoluteTimeoutSeconds * 1000 - now;
  }

  /** Redis drops the key at whichever timeout comes first. */
  private ttlMs(record: SessionRecord, now: number): number {
    const idle = this.config.sessionIdleTimeoutSeconds * 1000;
    return Math.max(1, Math.min(idle, this.absoluteMsLeft(record.createdAt, now)));
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
