import { Injectable } from '@nestjs/common';
import {
  DEFAULT_SPENDING_LIMIT,
  LlmCall,
  type LlmPurpose,
  type LlmTier,
  SPENDING_LIMIT_SETTING,
  getSetting,
} from '@sprout/domain';
import { DataSource, type EntityManager } from 'typeorm';

export interface SpendingState {
  /** Dollars spent on model calls since midnight UTC. */
  spentToday: number;
  /** The daily limit in dollars (settings spending_limit, default 50). */
  limit: number;
  reached: boolean;
}

/** One llm_calls row. `model` is null for template and minimal answers, which call no model. */
export interface LlmCallRecord {
  purpose: LlmPurpose;
  tier: LlmTier;
  model: string | null;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  latencyMs: number | null;
  error: string | null;
  userId: string | null;
  conversationId: string | null;
  messageId: string | null;
  isTestUser: boolean;
}

/** The daily AI budget and the ledger of model calls it is computed from (llm_calls). */
@Injectable()
export class SpendingService {
  constructor(private readonly dataSource: DataSource) {}

  async state(): Promise<SpendingState> {
    const manager = this.dataSource.manager;
    const [row] = await manager.query<Array<{ spent: string }>>(
      `SELECT coalesce(sum("cost"), 0)::text AS spent
         FROM "llm_calls"
        WHERE "created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    );
    const stored = Number(await getSetting<unknown>(manager, SPENDING_LIMIT_SETTING, DEFAULT_SPENDING_LIMIT));
    const limit = Number.isFinite(stored) && stored >= 0 ? stored : DEFAULT_SPENDING_LIMIT;
    const spentToday = Number(row?.spent ?? 0);
    return { spentToday, limit, reached: spentToday >= limit };
  }

  /** Writes a call at once (outside any reply transaction), so a paid call is never lost. */
  async record(call: LlmCallRecord, manager: EntityManager = this.dataSource.manager): Promise<string> {
    const inserted = await manager.insert(LlmCall, {
      ...call,
      totalTokens: call.promptTokens + call.completionTokens,
    });
    const id = (inserted.identifiers[0] as { id?: string } | undefined)?.id;
    if (id === undefined) throw new Error('llm_calls insert returned no id');
    return id;
  }

  /** Links a recorded call to the message it produced. */
  async link(callId: string, messageId: string, manager: EntityManager): Promise<void> {
    await manager.update(LlmCall, { id: callId }, { messageId });
  }
}
