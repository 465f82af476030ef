import { callEndpoint } from '@sprout/ui';
import {
  type CostImpactPreview,
  type CreateModelResponse,
  type EndpointRequest,
  type ModelDto,
  type ModelResponse,
  type ModelStatsResponse,
  type OpenAiModelsResponse,
  type SpendingLimitResponse,
  api,
} from '@sprout/contracts';

// Model management's calls (spec 001 §7) and the daily spending limit.

type CreateModelBody = EndpointRequest<typeof api.models.create>['body'];
export type UpdateModelBody = EndpointRequest<typeof api.models.update>['body'];

/** The visible models (removed ones are hidden). */
export function getModels(): Promise<ModelDto[]> {
  return callEndpoint(api.models.all, {}, { failureMessage: 'Failed to fetch models' });
}

export function getModelStats(showTestData: boolean): Promise<ModelStatsResponse> {
  return callEndpoint(
    api.models.stats,
    { query: { showTestData } },
    { failureMessage: 'Failed to fetch model stats' },
  );
}

/** The names the Add Model dialog checks a name against. */
export function getOpenAiModels(): Promise<OpenAiModelsResponse> {
  return callEndpoint(api.models.openAiModels, {}, { failureMessage: 'Failed to fetch OpenAI models' });
}

export function createModel(body: CreateModelBody): Promise<CreateModelResponse> {
  return callEndpoint(api.models.create, { body });
}

/** Sends the changed fields only. */
export function updateModel(id: string, body: UpdateModelBody): Promise<ModelResponse> {
  return callEndpoint(api.models.update, { params: { id }, body });
}

export function getCostImpact(fromModelId: string, toModelId: string): Promise<CostImpactPreview> {
  return callEndpoint(api.models.costImpact, { query: { fromModelId, toModelId } });
}

export function setLiveModel(id: string): Promise<ModelResponse> {
  return callEndpoint(api.models.setLive, { params: { id } });
}

export function setFallbackModel(id: string): Promise<ModelResponse> {
  return callEndpoint(api.models.setFallback, { params: { id } });
}

export function removeModel(id: string): Promise<ModelResponse> {
  return callEndpoint(api.models.remove, { params: { id } });
}

export function setSpendingLimit(spendingLimit: number): Promise<SpendingLimitResponse> {
  return callEndpoint(api.models.spendingLimit, { body: { spendingLimit } });
}
