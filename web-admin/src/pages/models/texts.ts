// The texts of the Model Management screen (spec 001 "Model management", §5, §8, §9).

export const modelTexts = {
  loading: 'Loading models...',
  loadFailed: 'Failed to fetch models',
  noModelsTitle: 'No Models Yet',
  noModelsHint: 'Add the OpenAI models that may answer texts, with their prices.',
  noUsage: 'No usage data available',
  caas: 'TBD',
  loadingValidModels: 'Loading valid OpenAI models...',
  modelNotFound: 'Model not found in OpenAI. Please check spelling.',
  pricingUrl: 'https://openai.com/api/pricing/',
} as const;

/** The toasts of spec 001 §8 (titles, and the fallbacks when the server gives no reason). */
export const modelToasts = {
  added: 'Model Added',
  updated: 'Model Updated',
  primaryUpdated: 'Primary Model Updated',
  fallbackSet: 'Fallback Model Set',
  removed: 'Model Removed',
  addFailed: 'Add Failed',
  saveFailed: 'Save Failed',
  addFailedFallback: 'Failed to add model',
  updateFailedFallback: 'Failed to update model',
  updateOneFailedFallback: (id: string) => `Failed to update model ${id}`,
  limitUpdated: 'Spending Limit Updated',
} as const;

/** Prices are typed in cents (spec 001 §5). */
export const PRICE_STEP = 0.01;
