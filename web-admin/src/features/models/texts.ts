// The texts of the Model Management screen.

export const modelTexts = {
  loading: 'Loading models...',
  loadFailed: 'Failed to fetch models',
  noModelsTitle: 'No Models Yet',
  noModelsHint: 'Add the OpenAI models that may answer texts, with their prices.',
  noUsage: 'No usage data available',
  caas: 'TBD',
  loadingValidModels: 'Loading valid OpenAI models...',
  modelNotFound: 'Model not found in OpenAI. Please check spelling.',
  namesUncheckedNoKey:
    'Model names cannot be checked without an OpenAI API key: a name is saved exactly as typed.',
  namesUncheckedNoList:
    'Model names cannot be checked now (the OpenAI model list could not be read): a name is saved exactly as typed.',
  unknownNameQuestion:
    'It is not a model we know, and without the OpenAI model list a misspelled name cannot be caught. Replies fail if it is made live and does not exist.',
  pricingUrl: 'https://openai.com/api/pricing/',
  zeroLimitWarning:
    'With a limit of $0 no model calls will be made: every reply is a template answer until the limit is raised.',
} as const;

/** The toasts (titles, and the fallbacks when the server gives no reason). */
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

/** Prices are typed in cents. */
export const PRICE_STEP = 0.01;
