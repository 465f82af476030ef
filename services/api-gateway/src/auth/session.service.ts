import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  adminSessionByTokenHash,
  deleteAdminSession,
  deleteExpiredAdminSessions,
  extendAdminSession,
  insertAdminSession,
} from '@sprout/domain';
import { CONFIG } from '@sprout/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { RedisKeys } from '../common/redis-keys';
import { isHttps } from '../common/request-info';
import type { ApiGatewayConfig } from '../config';

export const SESSION_COOKIE = 'sprout_session';

export interface AdminSession {
  id: string;
  adminUserId: string;
  username: string;
}

/** A session confirmed in Postgres at `checkedAt` (epoch ms). */
interface VerifiedSession {
  session: AdminSession;
  /** Epoch ms of the absolute timeout. */
  expiresAt: number;
  checkedAt: number;
}

/** How long a session confirmed in Postgres is trusted without asking again (at most a tenth of the idle timeout). */
const SESSION_RECHECK_MS = 5_000;
/** Sessions kept confirmed in memory; the oldest is forgotten beyond this. */
const VERIFIED_SESSIONS_MAX = 10_000;

/** The stored form of a session id: its SHA-256, so the table alone lets nobody sign in. */
export const sessionTokenHash = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Server-side admin sessions in Postgres (admin_sessions), referenced by a signed, httpOnly,
 * SameSite=Strict cookie. Use slides the idle timeout, written at most once per tenth of it; the
 * absolute timeout caps a session's life however active it is. Postgres, not Redis, so an admin
 * stays signed in (and sees Redis as down on System Health) while Redis is unreachable.
 *
 * A session confirmed in Postgres is trusted for SESSION_RECHECK_MS: a console polls several
 * endpoints at once. Ending a session evicts it here at once and, through a Redis channel, in
 * every other gateway; while that channel is down nothing is trusted from memory.
 */
@Injectable()
export class SessionService implements OnModuleInit, OnModuleDestroy {
  private readonly byRequest = new WeakMap<FastifyRequest, AdminSession>();
  private readonly verified = new Map<string, VerifiedSession>();
  private subscriber: Redis | undefined;
  private revocationsHeard = false;

  constructor(
    private readonly dataSource: DataSource,
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
    subscriber.on('message', (_channel: string, tokenHash: string) => {
      this.verified.delete(tokenHash);
    });
    // Without the channel every request asks Postgres; ioredis keeps reconnecting.
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
    const expiresAt = now + this.config.sessionAbsoluteTimeoutSeconds * 1000;
    const idleExpiresAt = Math.min(now + this.idleMs(), expiresAt);
    await insertAdminSession(this.dataSource, {
      tokenHash: sessionTokenHash(id),
      adminUserId: admin.id,
      createdAt: new Date(now),
      idleExpiresAt: new Date(idleExpiresAt),
      expiresAt: new Date(expiresAt),
    });
    // Sessions that ran out are removed here, at a sign-in, rather than by a timer.
    await deleteExpiredAdminSessions(this.dataSource, new Date(now));
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
   * One read; the idle timeout is written forward only when a tenth of it has passed since the
   * last write, so a polling console does not write on every request.
   */
  async resume(request: FastifyRequest): Promise<AdminSession | null> {
    const cached = this.byRequest.get(request);
    if (cached !== undefined) return cached;
    const id = this.idFromCookie(request);
    if (id === null) return null;
    const tokenHash = sessionTokenHash(id);

    const now = Date.now();
    const idleMs = this.idleMs();
    const known = this.verified.get(tokenHash);
    if (
      known !== undefined &&
      this.revocationsHeard &&
      now - known.checkedAt < Math.min(SESSION_RECHECK_MS, idleMs / 10) &&
      known.expiresAt > now
    ) {
      this.byRequest.set(request, known.session);
      return known.session;
    }
    this.verified.delete(tokenHash);

    const row = await adminSessionByTokenHash(this.dataSource, tokenHash);
    if (row === undefined) return null;
    const expiresAt = row.expires_at.getTime();
    if (row.idle_expires_at.getTime() <= now || expiresAt <= now) {
      await deleteAdminSession(this.dataSource, tokenHash);
      return null;
    }
    if (now - row.last_seen_at.getTime() >= idleMs / 10) {
      // Guarded by the session's own absolute timeout; a logout in between deletes the row first.
      await extendAdminSession(this.dataSource, tokenHash, new Date(now), new Date(now + idleMs));
    }
    const session = { id, adminUserId: row.admin_user_id, username: row.username };
    this.byRequest.set(request, session);
    if (this.verified.size >= VERIFIED_SESSIONS_MAX) {
      const oldest = this.verified.keys().next();
      if (oldest.done !== true) this.verified.delete(oldest.value);
    }
    this.verified.set(tokenHash, { session, expiresAt, checkedAt: now });
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

  /**
   * Deletes the session and tells every gateway (this one included) to forget it. The message is
   * not awaited: with Redis down it waits for the reconnect, and no gateway trusts memory then.
   */
  private async revoke(id: string): Promise<void> {
    const tokenHash = sessionTokenHash(id);
    this.verified.delete(tokenHash);
    await deleteAdminSession(this.dataSource, tokenHash);
    this.redis.publish(this.revocationChannel(), tokenHash).catch(() => undefined);
  }

  private revocationChannel(): string {
    return this.keys.key('sess-revoked');
  }

  private idleMs(): number {
    return this.config.sessionIdleTimeoutSeconds * 1000;
  }
}
