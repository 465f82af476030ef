// Answer and request shapes of every /api endpoint (both spec documents, section 7). Browser-safe:
// zod and types only. Request schemas (e.g. BetaSignupRequest) are zod objects the api-gateway
// validates with and the web apps may reuse; answers are plain types. Lists answer bare arrays
// unless the spec names fields (e.g. ConversationListResponse).
export * from './common';
export * from './public';
export * from './auth';
export * from './dashboard';
export * from './users';
export * from './conversations';
export * from './models';
export * from './surveys';
export * from './images';
export * from './simulator';
export * from './monitoring';
export * from './testers';
