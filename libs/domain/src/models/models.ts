/**
 * The Redis channel (under the deployment's BULLMQ_PREFIX) on which api-gateway announces a change
 * of ai_models (live, fallback, prices, max tokens, active) once it is committed; services that
 * keep the models in memory drop them when they hear it.
 */
export const MODEL_CATALOG_CHANNEL = 'ai-models:changed';
