import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  AdminUser,
  adminUserByUsername,
  insertAdminUserIfAbsent,
  recordAdminLogin,
  setAdminPasswordHash,
} from '@sprout/domain';
import { CONFIG, LOGGER } from '@sprout/platform';
import * as argon2 from 'argon2';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { ApiGatewayConfig } from '../config';

const HASH_OPTIONS = { type: argon2.argon2id } as const;

/**
 * Admin accounts (argon2id hashes). On start the first admin from ADMIN_USERNAME exists: with
 * ADMIN_PASSWORD set, that password is the account's; without it, a generated password is stored
 * once and logged once.
 */
@Injectable()
export class AdminUsersService implements OnApplicationBootstrap {
  /** Verified against when the username is unknown, so both cases take the same time. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ensureFirstAdmin();
  }

  async ensureFirstAdmin(): Promise<void> {
    const username = this.config.adminUsername;
    const password = this.config.adminPassword;
    const existing = await adminUserByUsername(this.dataSource, username);

    if (password !== undefined) {
      if (existing === null) {
        await insertAdminUserIfAbsent(this.dataSource, username, await argon2.hash(password, HASH_OPTIONS));
        this.logger.info(
          { adminUsername: username },
          'Admin user created from ADMIN_USERNAME and ADMIN_PASSWORD',
        );
      } else if (!(await argon2.verify(existing.passwordHash, password))) {
        // The environment is the source of truth for the first admin: changing it resets the password.
        await setAdminPasswordHash(this.dataSource, existing.id, await argon2.hash(password, HASH_OPTIONS));
        this.logger.info({ adminUsername: username }, 'Admin password updated from ADMIN_PASSWORD');
      }
      return;
    }

    if (existing !== null) return;
    const generated = randomBytes(12).toString('base64url');
    if (
      await insertAdminUserIfAbsent(this.dataSource, username, await argon2.hash(generated, HASH_OPTIONS))
    ) {
      this.logger.warn(
        { adminUsername: username, generatedAdminPassword: generated },
        `Generated admin password for "${username}": ${generated} (shown only once; set ADMIN_PASSWORD to choose your own)`,
      );
    }
  }

  /** The admin whose password matches, or null. Takes about as long for unknown usernames. */
  async verify(username: string, password: string): Promise<AdminUser | null> {
    const admin = await adminUserByUsername(this.dataSource, username);
    if (admin === null) {
      await argon2.verify(await this.getDummyHash(), password).catch(() => false);
      return null;
    }
    const matches = await argon2.verify(admin.passwordHash, password).catch(() => false);
    if (!matches) return null;
    await recordAdminLogin(this.dataSource, admin.id, new Date());
    return admin;
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= argon2.hash(randomBytes(16).toString('hex'), HASH_OPTIONS);
    return this.dummyHash;
  }
}
