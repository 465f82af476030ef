import type { DataSource, EntityManager } from 'typeorm';
import { type Db, managerOf } from '../db';
import { AiModel } from '../entities/ai-model.entity';

// The console's model management: reads and writes of ai_models, and the usage figures of
// llm_calls it shows. Changes run in the caller's transaction under lockModelCatalog.

/** Serialises changes of ai_models, so live and fallback move one change at a time. */
const MODELS_LOCK_KEY = 'sprout:ai-models';

/** Takes the transaction-scoped lock every change of ai_models holds. */
export async function lockModelCatalog(manager: EntityManager): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MODELS_LOCK_KEY]);
}

export async function visibleModels(db: Db): Promise<AiModel[]> {
  return managerOf(db).find(AiModel, { where: { isVisible: true } });
}

export async function modelByName(db: Db, name: string): Promise<AiModel | null> {
  return managerOf(db).findOneBy(AiModel, { name });
}

export async function modelById(db: Db, id: string): Promise<AiModel | null> {
  return managerOf(db).findOneBy(AiModel, { id });
}

export async function liveModel(db: Db): Promise<AiModel | null> {
  return managerOf(db).findOneBy(AiModel, { isLive: true });
}

export type ModelFields = Partial<
  Pick<
    AiModel,
    | 'name'
    | 'displayName'
    | 'inputPricePerMillion'
    | 'outputPricePerMillion'
    | 'maxTokens'
    | 'isActive'
    | 'isVisible'
    | 'isLive'
    | 'isFallback'
  >
>;

/** Inserts a model and answers it as stored. */
export async function insertModel(db: Db, fields: ModelFields): Promise<AiModel> {
  const manager = managerOf(db);
  return manager.save(manager.create(AiModel, fields));
}

/** Changes the given fields of the model and answers it as stored. */
export async function updateModel(db: Db, id: string, fields: ModelFields): Promise<AiModel> {
  const manager = managerOf(db);
  await manager.update(AiModel, { id }, fields);
  return manager.findOneByOrFail(AiModel, { id });
}

/** Changes the given fields of the model without reading it back. */
export async function setModelFields(db: Db, id: string, fields: ModelFields): Promise<void> {
  await managerOf(db).update(AiModel, { id }, fields);
}

/** No model is the fallback any more. */
export async function clearFallbackModel(db: Db): Promise<void> {
  await managerOf(db).update(AiModel, { isFallback: true }, { isFallback: false });
}

export interface ReplyTokenMixRow {
  replies: string;
  input_tokens: string | null;
  output_tokens: string | null;
}

/** Replies answered by a model (live or fallback tier, not `offlineModel`) since `since`, with their tokens. */
export async function replyTokenMix(
  dataSource: DataSource,
  since: Date,
  offlineModel: string,
): Promise<ReplyTokenMixRow | undefined> {
  const [row] = await dataSource.query<ReplyTokenMixRow[]>(
    `SELECT count(*) AS replies, sum("prompt_tokens") AS input_tokens, sum("completion_tokens") AS output_tokens
         FROM "llm_calls"
        WHERE "created_at" >= $1 AND "purpose" = 'reply' AND "tier" IN ('primary', 'fallback')
          AND "error" IS NULL AND "model" IS NOT NULL AND "model" <> $2`,
    [since, offlineModel],
  );
  return row;
}

export interface ModelUsageRow {
  model: string;
  messages: string;
  tokens: string;
  cost: string;
  sentiment: string | null;
}

/**
 * Calls per model since `since` (real users' or test users'), most spent first: replies, tokens,
 * cost, and the sentiment of the gardener's next message after each reply (how they took it), -1 to 1.
 */
export async function modelUsageSince(db: Db, since: Date, testUsers: boolean): Promise<ModelUsageRow[]> {
  return managerOf(db).query<ModelUsageRow[]>(
    `SELECT c."model" AS model,
              count(*) FILTER (WHERE c."purpose" = 'reply' AND c."message_id" IS NOT NULL) AS messages,
              coalesce(sum(c."total_tokens"), 0) AS tokens,
              coalesce(sum(c."cost"), 0) AS cost,
              avg(CASE n."sentiment" WHEN 'positive' THEN 1 WHEN 'neutral' THEN 0
                                     WHEN 'negative' THEN -1 WHEN 'frustrated' THEN -1 END) AS sentiment
         FROM "llm_calls" c
         LEFT JOIN "messages" r ON c."purpose" = 'reply' AND r."id" = c."message_id"
         LEFT JOIN LATERAL (
           SELECT i."sentiment" FROM "messages" i
            WHERE i."conversation_id" = r."conversation_id" AND i."direction" = 'inbound'
              AND i."created_at" > r."created_at"
            ORDER BY i."created_at" LIMIT 1
         ) n ON true
        WHERE c."created_at" >= $1 AND c."model" IS NOT NULL AND c."is_test_user" = $2
        GROUP BY c."model"
        ORDER BY sum(c."cost") DESC, c."model"`,
    [since, testUsers],
  );
}
