import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import {
  type CostImpactPreview,
  type CreateModelRequest,
  MODEL_NOT_FOUND,
  MODEL_USAGE_DAYS,
  type ModelDto,
  type ModelStatsResponse,
  type ModelUsage,
  type UpdateModelRequest,
  invalidOpenAiModelMessage,
} from '@sprout/contracts';
import {
  AiModel,
  MODEL_CATALOG_CHANNEL,
  clearFallbackModel,
  insertModel,
  liveModel,
  lockModelCatalog,
  modelById,
  modelByName,
  modelUsageSince,
  replyTokenMix,
  setModelFields,
  updateModel,
  visibleModels,
  SPENDING_LIMIT_SETTING,
  readSpendingLimit,
  setSetting,
  spendDay,
  spentSince,
} from '@sprout/domain';
import { OFFLINE_MODEL_NAME, type TokenMix, previewCostChange } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import { Redis } from 'ioredis';
import { DataSource, type EntityManager } from 'typeorm';
import { RedisKeys } from '../common/redis-keys';
import type { ApiGatewayConfig } from '../config';
import { OpenAiModelsService } from './openai-models.service';

const DAY_MS = 24 * 60 * 60 * 1000;

const toModelDto = (row: AiModel): ModelDto => ({
  id: row.id,
  name: row.name,
  displayName: row.displayName ?? row.name,
  inputPricePerMillion: row.inputPricePerMillion,
  outputPricePerMillion: row.outputPricePerMillion,
  maxTokens: row.maxTokens,
  isActive: row.isActive,
  isVisible: row.isVisible,
  isLive: row.isLive,
  isFallback: row.isFallback,
});

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
};

// Why a change is refused (409): a live or fallback model must be active and present.
const liveCannot = (name: string, what: string): string =>
  `Model "${name}" is the live model and cannot be ${what}: make another model live first.`;
const inactive = (name: string, role: string): string =>
  `Model "${name}" is inactive: activate it before making it ${role}.`;
const removed = (name: string, role: string): string =>
  `Model "${name}" was removed: add it again before making it ${role}.`;

/**
 * Model management: one live model and at most one fallback, both active, visible
 * and different; removing only hides; the live model cannot be removed or deactivated. Every
 * change runs under one advisory lock and, once committed, is announced on the Redis channel
 * MODEL_CATALOG_CHANNEL, so ai-responder's replicas answer the next reply with it.
 */
@Injectable()
export class ModelsService {
  private readonly logger = new Logger(ModelsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly openAiModels: OpenAiModelsService,
    @Inject(CONFIG) private readonly config: ApiGatewayConfig,
  ) {}

  /** Visible models: live first, then the fallback, then active ones by name, then inactive. */
  async list(): Promise<ModelDto[]> {
    const rows = await visibleModels(this.dataSource);
    const rank = (m: AiModel) => (m.isLive ? 0 : m.isFallback ? 1 : m.isActive ? 2 : 3);
    return rows.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name, 'en')).map(toModelDto);
  }

  /** A name a test user may be given: an active model of the list (400 otherwise). */
  async assertActiveModel(name: string): Promise<void> {
    const row = await modelByName(this.dataSource, name.trim());
    if (row === null || !row.isActive || !row.isVisible) {
      throw new BadRequestException(
        `testUserModel: "${name}" is not an active model. Choose one of the active models of Model Management.`,
      );
    }
  }

  /** Adds a model, or updates the one of that name and makes it visible. */
  async create(body: CreateModelRequest): Promise<{ model: ModelDto; created: boolean }> {
    if (body.name !== OFFLINE_MODEL_NAME) {
      const valid = await this.openAiModels.validNames();
      if (valid !== null && !valid.has(body.name)) {
        throw new BadRequestException(invalidOpenAiModelMessage(body.name));
      }
    }
    return this.change(async (manager) => {
      const existing = await modelByName(manager, body.name);
      const fields = {
        inputPricePerMillion: body.inputPricePerMillion,
        outputPricePerMillion: body.outputPricePerMillion,
        maxTokens: body.maxTokens,
        isActive: body.isActive,
      };
      if (existing === null) {
        const saved = await insertModel(manager, {
          ...fields,
          name: body.name,
          displayName: body.displayName,
          isVisible: body.isVisible,
        });
        return { model: toModelDto(saved), created: true };
      }
      const next = {
        ...fields,
        isVisible: true,
        ...(body.displayName ? { displayName: body.displayName } : {}),
      };
      return { model: await this.apply(manager, existing, next), created: false };
    });
  }

  /** Changes the given fields of a model. */
  async update(id: string, body: UpdateModelRequest): Promise<ModelDto> {
    return this.change(async (manager) => this.apply(manager, await this.lockRow(manager, id), body));
  }

  /** Makes the model live. Promoting the fallback swaps it with the old live model. */
  async setLive(id: string): Promise<ModelDto> {
    return this.change(async (manager) => {
      const model = await this.lockRow(manager, id);
      if (model.isLive) return toModelDto(model);
      if (!model.isVisible) throw new ConflictException(removed(model.name, 'live'));
      if (!model.isActive) throw new ConflictException(inactive(model.name, 'live'));
      const current = await liveModel(manager);
      // Order matters: each partial unique index allows one flagged row at any moment.
      if (model.isFallback) await setModelFields(manager, model.id, { isFallback: false });
      if (current !== null) {
        await setModelFields(manager, current.id, { isLive: false, isFallback: model.isFallback });
      }
      return toModelDto(await updateModel(manager, model.id, { isLive: true, isFallback: false }));
    });
  }

  /** Makes the model the fallback (replacing the previous one). */
  async setFallback(id: string): Promise<ModelDto> {
    return this.change(async (manager) => {
      const model = await this.lockRow(manager, id);
      if (model.isFallback) return toModelDto(model);
      if (model.isLive) {
        throw new ConflictException(
          `Model "${model.name}" is the live model: the fallback must be a different model.`,
        );
      }
      if (!model.isVisible) throw new ConflictException(removed(model.name, 'the fallback'));
      if (!model.isActive) throw new ConflictException(inactive(model.name, 'the fallback'));
      await clearFallbackModel(manager);
      return toModelDto(await updateModel(manager, model.id, { isFallback: true }));
    });
  }

  /** Hides the model (removing the fallback leaves no fallback). */
  async remove(id: string): Promise<ModelDto> {
    return this.change(async (manager) =>
      this.apply(manager, await this.lockRow(manager, id), { isVisible: false }),
    );
  }

  /**
   * What moving the live model from one model to another would cost, projected on the real
   * replies of the last MODEL_USAGE_DAYS days (their input and output tokens priced separately),
   * else on the average prices.
   */
  async costImpact(fromModelId: string, toModelId: string): Promise<CostImpactPreview> {
    const [from, to] = await Promise.all([
      modelById(this.dataSource, fromModelId),
      modelById(this.dataSource, toModelId),
    ]);
    if (from === null || to === null) throw new NotFoundException(MODEL_NOT_FOUND);
    const row = await replyTokenMix(
      this.dataSource,
      new Date(Date.now() - MODEL_USAGE_DAYS * DAY_MS),
      OFFLINE_MODEL_NAME,
    );
    const mix: TokenMix = {
      replies: Number(row?.replies ?? 0),
      inputTokens: Number(row?.input_tokens ?? 0),
      outputTokens: Number(row?.output_tokens ?? 0),
    };
    const priced = (m: AiModel) => ({
      name: m.name,
      inputPricePerMillion: m.inputPricePerMillion,
      outputPricePerMillion: m.outputPricePerMillion,
    });
    const preview = previewCostChange(priced(from), priced(to), mix);
    return {
      ...preview,
      basis: { ...preview.basis, days: MODEL_USAGE_DAYS },
    };
  }

  /**
   * Usage per model over the last MODEL_USAGE_DAYS days (real users' or test users' calls), today's
   * spend (every call, the figure the limit caps) and the limit.
   */
  async stats(testUsers: boolean, now: Date = new Date()): Promise<ModelStatsResponse> {
    const manager = this.dataSource.manager;
    const rows = await modelUsageSince(
      manager,
      new Date(now.getTime() - MODEL_USAGE_DAYS * DAY_MS),
      testUsers,
    );
    const stats: ModelUsage[] = rows.map((r) => ({
      modelName: r.model,
      totalMessages: Number(r.messages),
      totalTokensUsed: Number(r.tokens),
      totalCost: round(Number(r.cost), 6),
      avgSentiment: r.sentiment === null ? 0 : round(Number(r.sentiment), 2),
    }));
    const day = spendDay(now, this.config.spendTimeZone);
    return {
      stats,
      globalSpending: round(await spentSince(manager, day.start), 6),
      spendingLimit: await readSpendingLimit(manager),
    };
  }

  async setSpendingLimit(limit: number): Promise<number> {
    const value = round(limit, 6);
    await setSetting(this.dataSource.manager, SPENDING_LIMIT_SETTING, value);
    return value;
  }

  /** Runs a change of ai_models under the lock, then announces it. */
  private async change<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.dataSource.transaction(async (manager) => {
      await lockModelCatalog(manager);
      return work(manager);
    });
    await this.announce();
    return result;
  }

  private async lockRow(manager: EntityManager, id: string): Promise<AiModel> {
    const row = await modelById(manager, id);
    if (row === null) throw new NotFoundException(MODEL_NOT_FOUND);
    return row;
  }

  /**
   * Saves changed fields with the rules: the live model stays active and visible; a fallback that
   * is deactivated or hidden stops being the fallback.
   */
  private async apply(
    manager: EntityManager,
    model: AiModel,
    changes: UpdateModelRequest & { isVisible?: boolean },
  ): Promise<ModelDto> {
    const deactivating = changes.isActive === false && model.isActive;
    const hiding = changes.isVisible === false && model.isVisible;
    if (model.isLive && deactivating) throw new ConflictException(liveCannot(model.name, 'deactivated'));
    if (model.isLive && hiding) throw new ConflictException(liveCannot(model.name, 'removed'));
    const clearFallback = model.isFallback && (deactivating || hiding);
    const fields = { ...changes, ...(clearFallback ? { isFallback: false } : {}) };
    if (Object.keys(fields).length === 0) return toModelDto(model);
    return toModelDto(await updateModel(manager, model.id, fields));
  }

  /** Tells every ai-responder to drop its copy of ai_models (they also re-read within 30 s). */
  private async announce(): Promise<void> {
    try {
      await this.redis.publish(this.keys.key(MODEL_CATALOG_CHANNEL), String(Date.now()));
    } catch (error) {
      this.logger.warn(
        `Model change not announced (replies pick it up within 30 s): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
