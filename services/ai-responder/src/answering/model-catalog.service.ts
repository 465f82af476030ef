import { Inject, Injectable } from '@nestjs/common';
import { AiModel } from '@sprout/domain';
import { type ModelPrice, OFFLINE_MODEL_NAME, defaultPriceOf } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
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

/** Which models answer: ai_models' live and fallback rows (admin-managed), priced from their rows. */
@Injectable()
export class ModelCatalogService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CONFIG) private readonly config: AiResponderConfig,
  ) {}

  /**
   * The primary model (a test user's own model, else the live row, else LLM_DEFAULT_MODEL) and the
   * fallback row when it differs from the primary.
   */
  async replyModels(testUserModel: string | null): Promise<ReplyModels> {
    const repository = this.dataSource.getRepository(AiModel);
    const [live, fallback] = await Promise.all([
      repository.findOneBy({ isLive: true, isActive: true }),
      repository.findOneBy({ isFallback: true, isActive: true }),
    ]);
    const primaryName = testUserModel?.trim() || live?.name || this.config.llmDefaultModel;
    const primary = await this.describe(primaryName, live?.name === primaryName ? live : undefined);
    const second =
      fallback === null || fallback.name === primaryName
        ? null
        : await this.describe(fallback.name, fallback);
    return { primary, fallback: second };
  }

  /** Whether a name means the in-process offline advisor rather than an OpenAI model. */
  isOffline(name: string): boolean {
    return name === OFFLINE_MODEL_NAME;
  }

  private async describe(name: string, row?: AiModel | null): Promise<CatalogModel> {
    const found = row ?? (await this.dataSource.getRepository(AiModel).findOneBy({ name }));
    const price =
      found === null
        ? defaultPriceOf(name)
        : {
            inputPricePerMillion: found.inputPricePerMillion,
            outputPricePerMillion: found.outputPricePerMillion,
          };
    const cap =
      found !== null && found.maxTokens > 0 ? Math.min(found.maxTokens, REPLY_TOKEN_CAP) : REPLY_TOKEN_CAP;
    return { name, price, maxTokens: cap };
  }
}
