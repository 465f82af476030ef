// @sprout/gardening: pure gardening logic (no database, network or Nest). See README.md.

// Location detection
export * from './location/detect-location';

// Place facts: ZIPs, states and regions, hardiness zones, frost dates, seasons
export * from './places/zip';
export * from './places/states';
export * from './places/hardiness';
export * from './places/areas';
export * from './places/frost';
export * from './places/frost-shift';
export * from './places/season';

// Message validation and the template replies for invalid kinds
export * from './validation/validate-message';
export * from './validation/templates';
export * from './validation/safety';
export * from './validation/language';

// Input processing and profile commands
export * from './processing/process-message';
export * from './processing/profile-commands';

// Sentiment and topics, and the analysis of a text shared by validation, processing and the advisor
export * from './analysis/sentiment';
export * from './analysis/topics';
export * from './analysis/text-analysis';

// The offline advisor
export * from './advisor/advise-offline';
export { CROPS, type CropTiming } from './advisor/crops';
export { gardenerMessages, type ConversationTurn } from './advisor/followup';

// The garden calendar: dated tips, time zones, the tips offer
export * from './calendar';

// SMS text helpers
export * from './text/gsm7';
export { formatMonthDay } from './text/dates';
export { ANALYSIS_MAX_CHARS, analysisWindow, wordCount } from './text/words';

// Warm-up and evaluation
export * from './preload';
export * from './evaluation/evaluate';
export * from './evaluation/blind';
