import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OpenAiModelsResponse } from '@sprout/contracts';
import { OpenAiChatModel, pricedModelNames } from '@sprout/llm';
import { CONFIG } from '@sprout/platform';
import type { ApiGatewayConfig } from '../config';

/** How long the provider's list is kept (model lists change a few times a year). */
const OPENAI_MODELS_CACHE_MS = 5 * 60_000;
/** After a failed read, callers get the empty list this long before the provider is asked again. */
const FAILURE_CACHE_MS = 15_000;
const LIST_TIMEOUT_MS = 10_000;

interface Kept {
  names: readonly string[];
  /** False when the read failed (an empty list that validates nothing). */
  loaded: boolean;
  until: number;
}

/** A list read from the provider, with names in it, is what a new name is checked against. */
const checks = (kept: Kept): boolean => kept.loaded && kept.names.length > 0;

/**
 * The model names the Add Model dialog checks a name against. With OPENAI_API_KEY: the provider's
 * list for that key, through the openai SDK, kept a few minutes and shared by concurrent callers;
 * a failure is logged and answers an empty list. Without a key: the models of our price table,
 * so the dialog works offline (the server then checks no name).
 */
@Injectable()
export class OpenAiModelsService {
  private readonly logger = new Logger(OpenAiModelsService.name);
  private readonly client: OpenAiChatModel | null;
  private kept: Kept | undefined;
  private loading: Promise<Kept> | undefined;

  constructor(@Inject(CONFIG) config: ApiGatewayConfig) {
    this.client = config.openaiApiKey
      ? new OpenAiChatModel({
          apiKey: config.openaiApiKey,
          ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
          timeoutMs: LIST_TIMEOUT_MS,
        })
      : null;
  }

  async list(): Promise<OpenAiModelsResponse> {
    if (this.client === null)
      return { models: pricedModelNames(), source: 'price-table', namesChecked: false };
    const kept = await this.read(this.client);
    return { models: [...kept.names], source: 'openai', namesChecked: checks(kept) };
  }

  /** The names a new model must be one of; null when nothing can be checked (no key, or no list). */
  async validNames(): Promise<ReadonlySet<string> | null> {
    if (this.client === null) return null;
    const kept = await this.read(this.client);
    return checks(kept) ? new Set(kept.names) : null;
  }

  private read(client: OpenAiChatModel): Promise<Kept> {
    const kept = this.kept;
    if (kept !== undefined && kept.until > Date.now()) return Promise.resolve(kept);
    this.loading ??= client
      .listModels()
      .then(
        (names): Kept => ({ names, loaded: true, until: Date.now() + OPENAI_MODELS_CACHE_MS }),
        (error: unknown): Kept => {
          this.logger.warn(
            `OpenAI model list unavailable: ${error instanceof Error ? error.message : String(error)}`,
          );
          return { names: [], loaded: false, until: Date.now() + FAILURE_CACHE_MS };
        },
      )
      .then((loaded) => {
        this.kept = loaded;
        this.loading = undefined;
        return loaded;
      });
    return this.loading;
  }
}
