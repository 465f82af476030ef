// The simulator's and the mobile chat's texts.

export const simulatorTexts = {
  nameRequired: 'Please enter a test user name',
  sendRequirements: 'Please select a user and enter a message or image URL',
  messageRequired: 'Please enter a message',
  loadingConversation: 'Loading conversation...',
  loadingUsers: 'Loading test users...',
  redirecting: 'Redirecting to login...',
  createFailed: { prefix: 'Failed to create user', fallback: 'Failed to create test user' },
  sendFailed: { prefix: 'Failed to send message', fallback: 'Failed to send message' },
  deleteFailed: { prefix: 'Failed to delete user', fallback: 'Failed to delete test user' },
  copyFailed: 'Copy Failed',
  noReply: { title: 'No Reply', description: 'Sprout sent no reply to this message.' },
} as const;

/** The content type sent with an image URL. */
export const IMAGE_CONTENT_TYPE = 'image/jpeg';

/** The model select's value for "answer with the live model" (Radix Select items need a non-empty value). */
export const LIVE_MODEL_VALUE = 'live';
export const LIVE_MODEL_LABEL = 'Default (live model)';

export const HOW_TO_USE = [
  'Create a test user. Pick a model to try it, or keep the live model.',
  'Select the user and text Sprout as a gardener would. Add an image URL to test photo questions.',
  'Replies come from the same pipeline as real SMS, with tokens and cost on each one.',
  'Copy the mobile chat link to continue the conversation on a phone-sized screen.',
  "Test users' replies are never texted; their data shows under Test Data Mode.",
] as const;

/** The address of a test user's mobile chat. */
export const mobileChatPath = (userId: string): string =>
  `/mobile-conversation/${encodeURIComponent(userId)}`;
