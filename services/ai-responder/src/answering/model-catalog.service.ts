import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type AiModel, MODEL_CATALOG_CHANNEL, allAiModels } from '@sprout/domain';
import { type ModelPrice, OFFLINE_MODEL_NAME, defaultPriceOf } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { type AiResponderConfig } from '../config';

/** A model the chain may call, with its prices (ai_models row, else the list price). */
export interface CatalogModel {
  name: string;
  /** Unknown prices cost 0 (the call is still recorded with its tokens). */
  price: ModelPrice | undefined;
  /** Completion token cap of a reply (the row's max tokens, bounded). */
  maxTokens: number;
}

export interface ReplyModels {
  primary: CatalogModel;
  fallback: CatalogModel | null;
}

/** SMS replies are a few hundred characters; this leaves room for reasoning models. */
const REPLY_TOKEN_CAP = 1_024;
/**
 * A kept catalog is read again after this long even without an announcement: a row changed in
 * the database by hand (a seed, SQL) still reaches the replies.
 */
const CATALOG_MAX_AGE_MS = 30_000;

/** ai_models as the replies need it: every row by name, and the live and fallback rows. */
interface Catalog {
  byName: ReadonlyMap<string, AiModel>;
  live: AiModel | null;
  fallback: AiModel | null;
}

/**
 * Which models answer: ai_models' live and fallback rows (admin-managed), priced from their rows.
 *
 * The table is kept in memory and dropped when api-gateway announces a change on the Redis
 * channel MODEL_CATALOG_CHANNEL, so every replica answers the next reply with the new live or
 * fallback model, prices and max tokens (a few milliseconds of delay, no restart). While the
 * channel is not subscribed (Redis down, reconnecting) nothing is kept: each reply reads Postgres.
 */
@Injectable()
export class ModelCatalogService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ModelCatalogService.name);
  private subscriber: Redis | undefined;
  private listening = false;
  /** Moves on every announcement; a load begun before one is not kept. */
  private generation = 0;
  private kept: { generation: number; loadedAt: number; catalog: Promise<Catalog> } | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    // A subscribed connection can do nothing else: its own, subscribed anew on every connect.
    const subscriber = this.redis.duplicate({ lazyConnect: true, autoResubscribe: false });
    this.subscriber = subscriber;
    const stopKeeping = (): void => {
      this.listening = false;
      this.invalidate();
    };
    subscriber.on('error', stopKeeping);
    subscriber.on('close', stopKeeping);
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel()).then(() => {
        this.invalidate();
        this.listening = true;
      }, stopKeeping);
    });
    subscriber.on('message', () => this.invalidate());
    await subscriber.connect().catch((error: unknown) => {
      this.logger.warn(
        `Model changes channel unavailable, reading models per reply: ${error instanceof Error ? error.message : String(error)}`,
      );
      stopKeeping();
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.listening = false;
    this.invalidate();
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  /**
   * The primary model (a test user's own model, else the live row, else LLM_DEFAULT_MODEL) and the
   * fallback row when it differs from the primary.
   */
  async replyModels(testUserModel: string | null): Promise<ReplyModels> {
    const catalog = await this.catalog();
    const live = catalog.live;
    const primaryName = testUserModel?.trim() || live?.name || this.config.llmDefaultModel;
    const primary = this.describe(primaryName, catalog.byName.get(primaryName));
    const fallback = catalog.fallback;
    const second =
      fallback === null || fallback.name === primaryName ? null : this.describe(fallback.name, fallback);
    return { primary, fallback: second };
  }

  /** Whether a name means the in-process offline advisor rather than an OpenAI model. */
  isOffline(name: string): boolean {
    return name === OFFLINE_MODEL_NAME;
  }

  private channel(): string {
    return `${this.config.bullmqPrefix}:${MODEL_CATALOG_CHANNEL}`;
  }

  private invalidate(): void {
    this.generation += 1;
    this.kept = undefined;
  }

  private catalog(): Promise<Catalog> {
    if (!this.listening) return this.load();
    const kept = this.kept;
    if (
      kept !== undefined &&
      kept.generation === this.generation &&
      Date.now() - kept.loadedAt < CATALOG_MAX_AGE_MS
    )
      return kept.catalog;
    const generation = this.generation;
    const catalog = this.load();
    this.kept = { generation, loadedAt: Date.now(), catalog };
    // A failed read is not kept; the next reply tries again.
    catalog.catch(() => {
      if (this.kept?.catalog === catalog) this.kept = undefined;
    });
    return catalog;
  }

  private async load(): Promise<Catalog> {
    const rows = await allAiModels(this.dataSource);
    const active = rows.filter((row) => row.isActive);
    return {
      byName: new Map(rows.map((row) => [row.name, row])),
      live: active.find((row) => row.isLive) ?? null,
      fallback: active.find((row) => row.isFallback) ?? null,
    };
  }

  private describe(name: string, row: AiModel | undefined): CatalogModel {
    const price =
      row === undefined
        ? defaultPriceOf(name)
        : {
            inputPricePerMillion: row.inputPricePerMillion,
            outputPricePerMillion: row.outputPricePerMillion,
          };
    const cap =
      row !== undefined && row.maxTokens > 0 ? Math.min(row.maxTokens, REPLY_TOKEN_CAP) : REPLY_TOKEN_CAP;
    return { name, price, maxTokens: cap };
  }
}
