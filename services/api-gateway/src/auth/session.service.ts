import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
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

/**
 * Server-side admin sessions in Redis (`<prefix>:sess:<id>`), referenced by a signed, httpOnly,
 * SameSite=Strict cookie. Each authenticated request slides the idle timeout (the key's TTL); the
 * absolute timeout caps a session's life however active it is.
 */
@Injectable()
export class SessionService {
  private readonly byRequest = new WeakMap<FastifyRequest, AdminSession>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  /** Starts a session with a fresh id; any session the request carried is ended first. */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    admin: { id: string; username: string },
  ): Promise<AdminSession> {
    const previous = this.idFromCookie(request);
    if (previous !== null) await this.redis.del(this.key(previous));

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
   * One Redis round trip per request: GETEX reads the record and slides the idle timeout (the
   * key's TTL) together, and never recreates a key that logout deleted. The absolute timeout is
   * checked from the record.
   */
  async resume(request: FastifyRequest): Promise<AdminSession | null> {
    const cached = this.byRequest.get(request);
    if (cached !== undefined) return cached;
    const id = this.idFromCookie(request);
    if (id === null) return null;

    const key = this.key(id);
    const idleMs = this.config.sessionIdleTimeoutSeconds * 1000;
    const stored = await this.redis.getex(key, 'PX', idleMs);
    if (stored === null) return null;
    const parsed = SessionRecord.safeParse(safeJson(stored));
    const now = Date.now();
    if (!parsed.success || this.absoluteMsLeft(parsed.data, now) <= 0) {
      await this.redis.del(key);
      return null;
    }
    // Near the absolute timeout the key must go before a full idle period (rare: once a session).
    const absoluteLeft = this.absoluteMsLeft(parsed.data, now);
    if (absoluteLeft < idleMs) await this.redis.pexpire(key, absoluteLeft);
    const session = { id, adminUserId: parsed.data.adminUserId, username: parsed.data.username };
    this.byRequest.set(request, session);
    return session;
  }

  /** Ends the request's session (if any) and clears the cookie. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = this.idFromCookie(request);
    if (id !== null) await this.redis.del(this.key(id));
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

  private key(id: string): string {
    return this.keys.key('sess', id);
  }

  private absoluteMsLeft(record: SessionRecord, now: number): number {
    return record.createdAt + this.config.sessionAbsoluteTimeoutSeconds * 1000 - now;
  }

  /** Redis drops the key at whichever timeout comes first. */
  private ttlMs(record: SessionRecord, now: number): number {
    const idle = this.config.sessionIdleTimeoutSeconds * 1000;
    return Math.max(1, Math.min(idle, this.absoluteMsLeft(record, now)));
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};
